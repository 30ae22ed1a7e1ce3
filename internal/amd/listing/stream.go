package listing

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// Streaming: raw machine code larger than StreamAbove is listed piece by
// piece, so memory stays independent of the input's size (issue 13: 100 MB
// of random bytes had taken 8.6 GB). Each piece is decoded, its branches
// labelled and its padding folded as Build does, then written and dropped;
// branch targets outside a piece keep their numeric offset.
const (
	StreamAbove = 8 << 20
	streamPiece = 256 << 10
	// streamCarry is kept back at the end of a piece that is not the last,
	// more than the longest instruction (20 bytes), so no instruction is
	// cut: it starts the next piece.
	streamCarry = 32
)

// Stream decodes the raw machine code r holds (size bytes) with fam and
// writes the listing to w as Build and WriteText would, a piece at a time.
// It returns how many instructions it listed and how many did not decode.
func Stream(w io.Writer, r io.Reader, size int64, arch string, fam Codec, opts Options) (listed, failed int, err error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "// %s, raw machine code of %d bytes, listed in pieces of %d KiB (branch labels within a piece)\n", arch, size, streamPiece>>10)
	width := max(len(strconv.FormatInt(size, 16)), 6)
	buf := make([]byte, 0, streamPiece+streamCarry)
	var base int64
	line := make([]byte, 0, 256)
	var entries []Entry
	for eof := false; !eof; {
		n, rerr := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		switch rerr {
		case nil:
		case io.EOF, io.ErrUnexpectedEOF:
			eof = true
		default:
			return listed, failed, rerr
		}
		limit := len(buf)
		if !eof {
			limit -= streamCarry
		}
		entries = decodeCode(fam.Dec, buf, base, 0, opts, entries[:0])
		keep := len(entries)
		for i := range entries {
			if entries[i].Addr-base >= int64(limit) {
				keep = i
				break
			}
		}
		piece := entries[:keep]
		resolveBranches(piece)
		for _, e := range collapse(piece, opts.NoCollapse) {
			for _, lab := range e.Labels() {
				bw.WriteString(lab)
				bw.WriteString(":\n")
			}
			line = append(appendEntry(line[:0], &e, width), '\n')
			bw.Write(line)
			listed++
			if e.Err() != "" {
				failed++
			}
		}
		used := len(buf)
		if keep < len(entries) {
			used = int(entries[keep].Addr - base)
		}
		// The carry moves to the front; the entries' texts and bytes that
		// pointed into buf are written already.
		rest := copy(buf, buf[used:])
		buf = buf[:rest]
		base += int64(used)
	}
	fmt.Fprintf(bw, "// %s", plural(listed, "instruction"))
	if failed > 0 {
		fmt.Fprintf(bw, ", %d not decoded", failed)
	}
	bw.WriteString("\n")
	return listed, failed, bw.Flush()
}

// BareCode writes to w the machine code of text whose every line is bare
// bytes (hex words, byte lists, comments, blank lines: what Parse reads as
// one run of bytes), a line at a time, so a large hex dump can be
// streamed as raw code (60 MB of hex words had taken 1.9 GB read whole).
// ok is false, with w holding part of it, at the first line that is
// anything else or longer than 64 KiB; the input is then read whole.
func BareCode(w io.Writer, r io.Reader) (n int64, ok bool, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	bw := bufio.NewWriterSize(w, 64<<10)
	var code []byte
	for {
		line, rerr := br.ReadSlice('\n')
		if rerr == bufio.ErrBufferFull {
			return n, false, nil
		}
		if rerr != nil && rerr != io.EOF {
			return n, false, rerr
		}
		var bare bool
		if code, bare = bareBytes(bytes.TrimSuffix(line, []byte("\n")), code[:0]); !bare {
			return n, false, nil
		}
		bw.Write(code)
		n += int64(len(code))
		if rerr == io.EOF {
			return n, true, bw.Flush()
		}
	}
}
