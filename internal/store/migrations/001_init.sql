-- Schema version 1: one row per family and per instruction; the instruction
-- document is the JSON of isa.Instruction (a rowid table: documents are
-- large, and WITHOUT ROWID tables store large rows poorly) so readers get every fact with its
-- provenance in one read. Lookup columns are copied out for listing/search.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE archs (
    id   TEXT PRIMARY KEY,
    ord  INTEGER NOT NULL,
    doc  TEXT NOT NULL
);
CREATE TABLE instructions (
    arch     TEXT NOT NULL,
    name     TEXT NOT NULL,
    category TEXT NOT NULL,
    section  TEXT NOT NULL,
    summary  TEXT NOT NULL,
    formats  TEXT NOT NULL,
    doc      BLOB NOT NULL,
    UNIQUE (arch, name)
);
-- names maps every spelling a user may type (aliases, renames) to the
-- canonical instruction.
CREATE TABLE names (
    arch  TEXT NOT NULL,
    alias TEXT NOT NULL,
    name  TEXT NOT NULL,
    PRIMARY KEY (arch, alias)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE fts USING fts5(
    arch UNINDEXED,
    name,
    summary,
    body,
    tokenize = "unicode61 tokenchars '_.'"
);
