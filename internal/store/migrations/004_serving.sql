-- Schema version 4: what the server reads without decoding documents.
-- doc_len and doc_crc are the length and CRC-32 of an instruction's JSON
-- document (which ends in a newline, as the API answers it), so the
-- deflate-compressed document is sent as a gzip answer byte for byte.
ALTER TABLE instructions ADD COLUMN doc_len INTEGER NOT NULL DEFAULT 0;
ALTER TABLE instructions ADD COLUMN doc_crc INTEGER NOT NULL DEFAULT 0;
-- codecs holds, per native family, only the facts the machine-code decoder
-- and encoder read (names, encodings, operands, syntax), gob-encoded and
-- deflate-compressed: a family's decoder loads from one row in milliseconds
-- instead of from every instruction document.
CREATE TABLE codecs (
    arch TEXT PRIMARY KEY,
    doc  BLOB NOT NULL
);
-- Search runs over an index the server builds in memory when it opens the
-- database (see textindex.go), not FTS5: search_text is what it indexes.
DROP TABLE fts;
CREATE TABLE search_text (
    arch    TEXT NOT NULL,
    name    TEXT NOT NULL,
    summary TEXT NOT NULL,
    body    TEXT NOT NULL
);
