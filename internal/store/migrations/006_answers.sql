-- Schema version 6: encodings' layouts are stored once, with the family's
-- formats (see derived below), and answers holds the server's answers for the site's pages,
-- rendered by the build from this database and gzip-compressed (see
-- Build.Answers): a page's first request is a row read, not a render.
CREATE TABLE answers (
    key          TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    gz           BLOB NOT NULL
);
-- derived counts the encodings of an instruction whose layout (width,
-- fields, identifier, documented layout) is left out of its stored document
-- because its family's format gives it (layout.go); readers derive them.
ALTER TABLE instructions ADD COLUMN derived INTEGER NOT NULL DEFAULT 0;
