-- Schema version 2: instruction documents are stored deflate-compressed
-- (JSON compresses about tenfold: field tables repeat across instructions).
INSERT INTO meta(key, value) VALUES ('doc_encoding', 'deflate');
