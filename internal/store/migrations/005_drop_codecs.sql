-- Schema version 5: the decoders read the prepared tables of package codec
-- (one owner of the decoder's facts); the codecs table of version 4 goes.
DROP TABLE codecs;
