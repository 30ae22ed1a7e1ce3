-- Schema version 6: answers holds the server's answers for the site's pages,
-- rendered by the build from this database and gzip-compressed (see
-- Build.Answers): a page's first request is a row read, not a render.
CREATE TABLE answers (
    key          TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    gz           BLOB NOT NULL
);
