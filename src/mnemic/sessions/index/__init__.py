"""What the session indexes hold: segmentation, the indexed fields, the query language."""
