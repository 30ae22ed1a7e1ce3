package store

import (
	"context"
	"encoding/json"
)

// StoredLayouts counts, over the documents as stored, the encodings written
// without their layout (left to their format) and all encodings, for the
// tests of the external package.
func StoredLayouts(ctx context.Context, s *DB) (left, all int, err error) {
	rows, err := s.db.QueryContext(ctx, "SELECT doc FROM instructions")
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var packed []byte
		if err := rows.Scan(&packed); err != nil {
			return 0, 0, err
		}
		doc, err := decompress(packed)
		if err != nil {
			return 0, 0, err
		}
		var in struct {
			Encodings []struct {
				Fields json.RawMessage `json:"fields"`
			} `json:"encodings"`
		}
		if err := json.Unmarshal(doc, &in); err != nil {
			return 0, 0, err
		}
		for _, e := range in.Encodings {
			all++
			if string(e.Fields) == "null" {
				left++
			}
		}
	}
	return left, all, rows.Err()
}
