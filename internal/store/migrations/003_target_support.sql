-- Schema version 3: llvm-mc's verdict on each instruction's name per gfx
-- target, copied out of the document (JSON of store.Support, '' when the
-- name was not verified), so an editor can check a whole file against its
-- target without inflating a document per mnemonic.
ALTER TABLE instructions ADD COLUMN support TEXT NOT NULL DEFAULT '';
