"""``curated_write`` as migration 11 installed it (a plain add or remove), kept as it was:
a migration is history, and a schema migrated from version 10 runs it before migration 12
replaces the function (:data:`.curated_server.FUNCTION`). Its head and tail are the same
text in both versions: they are written once here (:data:`CHECKED`, :data:`KEPT`), and each
version joins them around its own rule, the same bytes as installed."""

from __future__ import annotations

__all__ = ["CHECKED", "FUNCTION_11", "KEPT", "SIGNATURE_11"]

CHECKED = r"""RETURNS TABLE (o_outcome text, o_found text, o_line text)
LANGUAGE plpgsql AS $fn$
DECLARE
    t0 timestamptz := clock_timestamp();
    t1 timestamptz;
    -- what Python's str.strip() strips (str.isspace)
    ws constant text := '[\u0009-\u000d\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a'
                        '\u2028\u2029\u202f\u205f\u3000]';
    h_count bigint;
    h_hash text;
    raw text;
    cleaned text;
    st text;
    pieces text[];
    n integer;
    idx integer;
    hits text[];
    gone text := NULL;
    new_text text;
    before_hash text;
    after_hash text;
    rec_seq bigint;
    names text[];
    vals text[];
    rec_body text;
    rec_hash text;
    rec_line text;
    kept bigint;
BEGIN
    IF current_setting('server_encoding') <> 'UTF8' THEN
        RETURN QUERY SELECT 'fallback:encoding', NULL::text, NULL::text; RETURN;
    END IF;
    PERFORM pg_advisory_xact_lock(p_lock);
    SELECT h.count, h.hash INTO h_count, h_hash FROM {s}.audit_head h
        WHERE h.project = p_project FOR UPDATE;
    t1 := clock_timestamp();
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'fallback:no_head', NULL::text, NULL::text; RETURN;
    END IF;
    SELECT c.body, c.clean INTO raw, cleaned FROM {s}.curated c
        WHERE c.project = p_project AND c.target = p_target;
    IF raw IS NULL THEN
        RETURN QUERY SELECT 'fallback:no_text', NULL::text, NULL::text; RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM {s}.curated_provenance l
               WHERE l.project = p_project AND l.target = p_target) THEN
        RETURN QUERY SELECT 'fallback:ledger', NULL::text, NULL::text; RETURN;
    END IF;
    before_hash := encode(sha256(convert_to(raw, 'UTF8')), 'hex');
    SELECT a.state INTO st FROM {s}.audit_targets a
        WHERE a.project = p_project AND a.target = p_target;
    IF NOT FOUND OR st IS DISTINCT FROM before_hash THEN
        RETURN QUERY SELECT 'fallback:unrecorded', NULL::text, NULL::text; RETURN;
    END IF;
    -- strictly clean: the pieces are the entries, and joining them gives the text back
    IF raw = '' THEN
        pieces := '{}';
    ELSE
        pieces := string_to_array(raw, E'\n§\n');
        -- a text this function wrote is clean by construction (an add or remove of a
        -- clean text); ``clean`` holds its hash, which any other writer leaves stale
        IF cleaned IS DISTINCT FROM before_hash AND (
            strpos(raw, E'\r') > 0 OR right(raw, 2) = E'\n§'
            -- whitespace at the edge of a piece, or a blank piece
            OR raw ~ ('^' || ws || '|' || ws || '$|' || ws || E'\n§\n|\n§\n' || ws)
            OR (SELECT count(DISTINCT p) FROM unnest(pieces) p) <> cardinality(pieces))
        THEN
            RETURN QUERY SELECT 'fallback:unclean', NULL::text, NULL::text; RETURN;
        END IF;
        IF length(raw) > p_limit AND EXISTS (SELECT 1 FROM unnest(pieces) p
                                             WHERE length(p) > p_limit) THEN
            RETURN QUERY SELECT 'fallback:unclean', NULL::text, NULL::text; RETURN;
        END IF;
    END IF;
"""
"""The function's head up to its rule (both versions): the locks, the text read, and
the checks that it is one the server can decide (migration 12's :data:`.curated_server.FUNCTION`
shares it)."""

KEPT = r"""    after_hash := encode(sha256(convert_to(new_text, 'UTF8')), 'hex');
    -- the previous text as the next version, versions past the limit dropped
    IF p_history > 0 THEN
        INSERT INTO {s}.curated_versions AS v (project, target, seq, saved_at, body)
            SELECT p_project, p_target, coalesce(max(x.seq), 0) + 1, p_now, raw
            FROM {s}.curated_versions x WHERE x.project = p_project AND x.target = p_target
            RETURNING v.seq INTO kept;
        DELETE FROM {s}.curated_versions x WHERE x.project = p_project AND x.target = p_target
            AND x.seq <= kept - p_history;
    END IF;
    UPDATE {s}.curated c SET body = new_text, version = c.version + 1, updated_at = p_now,
        clean = after_hash WHERE c.project = p_project AND c.target = p_target;
    -- the record, filled and chained
    rec_seq := h_count + 1;
    names := ARRAY['seq', 'prev', 'before', 'after', 'lock_wait_ms', 'time', 'ts', 'key', 'text'];
    vals := ARRAY[
        rec_seq::text, to_json(h_hash)::text, to_json(before_hash)::text, to_json(after_hash)::text,
        regexp_replace(regexp_replace(
            round((extract(epoch FROM t1 - t0) * 1000)::numeric, 3)::text, '0+$', ''), '\.$', '.0'),
        to_json(to_char(t1 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))::text,
        regexp_replace(regexp_replace(
            round(extract(epoch FROM t1)::numeric, 6)::text, '0+$', ''), '\.$', '.0'),
        to_json(left(encode(sha256(convert_to(coalesce(gone, ''), 'UTF8')), 'hex'), 32))::text,
        to_json(gone)::text];
    rec_body := {s}.curated_fill(p_body, p_body_slots, names, vals);
    rec_hash := encode(sha256(convert_to(rec_body, 'UTF8')), 'hex');
    rec_line := {s}.curated_fill(p_line, p_line_slots, names || 'hash'::text,
                                 vals || to_json(rec_hash)::text);
    INSERT INTO {s}.audit (project, seq, line) VALUES (p_project, rec_seq, rec_line);
    UPDATE {s}.audit_head h SET count = rec_seq, hash = rec_hash WHERE h.project = p_project;
    INSERT INTO {s}.audit_targets (project, target, state, origin, origin_known)
        VALUES (p_project, p_target, after_hash, before_hash, true)
        ON CONFLICT (project, target) DO UPDATE SET state = excluded.state,
        origin = excluded.origin, origin_known = excluded.origin_known;
    RETURN QUERY SELECT 'ok', raw, rec_line;
END
$fn$"""
"""The function's tail after its rule (both versions): the previous text kept as a
version, the new one written, the record filled, chained and appended."""

FUNCTION_11 = (
    r"""CREATE FUNCTION {s}.curated_write(
    p_project text, p_target text, p_lock bigint, p_action text, p_text text,
    p_limit integer, p_history integer, p_now double precision,
    p_body text[], p_body_slots text[], p_line text[], p_line_slots text[])
"""
    + CHECKED
    + r"""    n := cardinality(pieces);
    IF p_action = 'add' THEN
        IF p_text = ANY (pieces) THEN
            RETURN QUERY SELECT 'fallback:duplicate', NULL::text, NULL::text; RETURN;
        END IF;
        new_text := CASE WHEN raw = '' THEN p_text ELSE raw || E'\n§\n' || p_text END;
        IF length(new_text) > p_limit THEN
            RETURN QUERY SELECT 'fallback:budget', NULL::text, NULL::text; RETURN;
        END IF;
    ELSIF p_action = 'remove' THEN
        idx := array_position(pieces, p_text);
        IF idx IS NULL AND left(p_text, 6) = 'entry:' THEN
            SELECT min(o) INTO idx FROM unnest(pieces) WITH ORDINALITY AS u(p, o)
                WHERE 'entry:' || left(encode(sha256(convert_to(p, 'UTF8')), 'hex'), 8) = p_text;
        END IF;
        IF idx IS NULL THEN
            SELECT array_agg(DISTINCT p), min(o) INTO hits, idx
                FROM unnest(pieces) WITH ORDINALITY AS u(p, o) WHERE strpos(p, p_text) > 0;
            IF idx IS NULL THEN
                RETURN QUERY SELECT 'fallback:no_match', NULL::text, NULL::text; RETURN;
            END IF;
            IF cardinality(hits) > 1 THEN
                RETURN QUERY SELECT 'fallback:ambiguous', NULL::text, NULL::text; RETURN;
            END IF;
        END IF;
        gone := pieces[idx];
        new_text := array_to_string(pieces[1:idx - 1] || pieces[idx + 1:n], E'\n§\n');
    ELSE
        RETURN QUERY SELECT 'fallback:action', NULL::text, NULL::text; RETURN;
    END IF;
"""
    + KEPT
)
"""The function of migration 11."""

SIGNATURE_11 = (
    "{s}.curated_write(text, text, bigint, text, text, integer, integer, double precision, "
    "text[], text[], text[], text[])"
)
"""Its argument types (what ``DROP FUNCTION`` names)."""
