-- Schema version 3: llvm-mc's verdict on each instruction's name per gfx
-- target, copied out of the document (store.supportOf's words), so an editor
-- can check a whole file against its target without inflating a document
-- per mnemonic. A table of its own: read after the large document column,
-- each row would walk the document's overflow pages.
CREATE TABLE support (
    arch     TEXT NOT NULL,
    name     TEXT NOT NULL,
    verdicts TEXT NOT NULL,
    PRIMARY KEY (arch, name)
) WITHOUT ROWID;
