"""Importing conversations: the driver, one streaming reader per format, growing files."""
