package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"modernc.org/sqlite/vfs"

	"github.com/gpuisa/gpuisa/internal/base/errs"
)

// FileID identifies one database file: a build renames a new file into
// place, so a new inode (or size, or modification time) at the path is a new
// database. The zero FileID means "no file".
type FileID struct {
	Dev, Ino uint64
	Size     int64
	ModTime  time.Time
}

// IsZero says whether id names no file.
func (id FileID) IsZero() bool { return id == FileID{} }

func (id FileID) String() string {
	if id.IsZero() {
		return "no file"
	}
	return fmt.Sprintf("inode %d:%d, %d bytes, modified %s", id.Dev, id.Ino, id.Size, id.ModTime.UTC().Format(time.RFC3339Nano))
}

func fileID(st os.FileInfo) FileID {
	id := FileID{Size: st.Size(), ModTime: st.ModTime()}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		id.Dev, id.Ino = uint64(sys.Dev), uint64(sys.Ino)
	}
	return id
}

// Stat returns the identity of the database file at path, following
// symbolic links, as Open would open it. It is cheap enough to call every
// second.
func Stat(path string) (FileID, error) {
	st, err := os.Stat(path)
	if err != nil {
		return FileID{}, err
	}
	if !st.Mode().IsRegular() {
		return FileID{}, fmt.Errorf("%s is not a regular file", path)
	}
	return fileID(st), nil
}

// sqliteHeader is the fixed 100-byte header every SQLite database starts with.
const sqliteHeaderSize = 100

// checkHeader validates the database header against the file's size: the
// magic string, a legal page size, and a page count (valid for this change
// counter) that accounts for every byte. A truncated, padded or foreign file
// fails here, before SQLite reads a page of it.
func checkHeader(f *os.File, size int64) error {
	if size < sqliteHeaderSize {
		return fmt.Errorf("%d bytes, shorter than a SQLite header", size)
	}
	var h [sqliteHeaderSize]byte
	if _, err := io.ReadFull(io.NewSectionReader(f, 0, sqliteHeaderSize), h[:]); err != nil {
		return err
	}
	if string(h[:16]) != "SQLite format 3\x00" {
		return errors.New("not a SQLite database")
	}
	pageSize := int64(binary.BigEndian.Uint16(h[16:18]))
	if pageSize == 1 {
		pageSize = 65536
	}
	if pageSize < 512 || pageSize&(pageSize-1) != 0 {
		return fmt.Errorf("page size %d is not a power of two from 512 to 65536", pageSize)
	}
	changes, validFor := binary.BigEndian.Uint32(h[24:28]), binary.BigEndian.Uint32(h[92:96])
	pages := int64(binary.BigEndian.Uint32(h[28:32]))
	if changes != validFor || pages == 0 {
		return errors.New("the header's page count is not valid (written by an old SQLite or left mid-write)")
	}
	if pages*pageSize != size {
		return fmt.Errorf("the header counts %d pages of %d bytes (%d bytes), the file has %d: truncated or overwritten in place",
			pages, pageSize, pages*pageSize, size)
	}
	return nil
}

// openFile opens path for reading and checks that it is a complete database
// file; the handle stays open for the life of the DB so every connection
// reads this file, whatever is renamed to the path later.
func openFile(path string) (*os.File, FileID, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, FileID{}, errs.NotFound(nil, "database %s does not exist; run `gpuisa build` first", path)
		}
		return nil, FileID{}, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, FileID{}, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, FileID{}, fmt.Errorf("database %s is not a regular file", path)
	}
	if err := checkHeader(f, st.Size()); err != nil {
		f.Close()
		return nil, FileID{}, fmt.Errorf("database %s: %w", path, err)
	}
	return f, fileID(st), nil
}

// boundFile is a one-file fs.FS over the open database handle, registered
// with SQLite as a read-only VFS: every connection of the pool, whenever it
// is opened, reads this inode, not whatever is at the path by then.
type boundFile struct {
	f  *os.File
	st os.FileInfo
}

// boundName is the one name a boundFile answers to.
const boundName = "gpuisa.db"

func (b *boundFile) Open(name string) (fs.File, error) {
	if name != boundName {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &boundHandle{file: b}, nil
}

// boundHandle is one connection's handle: its own offset, reads with
// ReadAt, so connections never share a file position.
type boundHandle struct {
	file *boundFile
	off  int64
}

func (h *boundHandle) Read(p []byte) (int, error) {
	n, err := h.file.f.ReadAt(p, h.off)
	h.off += int64(n)
	return n, err
}

func (h *boundHandle) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += h.off
	case io.SeekEnd:
		offset += h.file.st.Size()
	}
	if offset < 0 {
		return 0, errors.New("negative offset")
	}
	h.off = offset
	return offset, nil
}

func (h *boundHandle) Stat() (fs.FileInfo, error) { return h.file.st, nil }
func (h *boundHandle) Close() error               { return nil }

// openBound registers f as a VFS and returns the DSN of the database in it
// and the VFS to close after the database.
func openBound(f *os.File) (string, *vfs.FS, error) {
	st, err := f.Stat()
	if err != nil {
		return "", nil, err
	}
	name, fsys, err := vfs.New(&boundFile{f: f, st: st})
	if err != nil {
		return "", nil, err
	}
	// immutable: a build never changes a file in place, so SQLite need not
	// lock it or look for journals.
	return "file:" + boundName + "?vfs=" + name + "&mode=ro&immutable=1&_pragma=query_only(1)", fsys, nil
}

// OpenCopy opens a private copy of the database at path: the copy is taken
// now, and the DB reads only it. Open's binding to the inode protects a
// server from a build renaming a new file into place, but not from the file
// being written over in place (`cp other.db served.db`): SQLite reads
// pages lazily, so the served DB would read the new bytes. A private copy
// keeps the bytes that were validated for as long as they are served.
// The file changing while it is copied is an error (ErrChanging): the copy
// could mix two files.
func OpenCopy(path string) (*DB, error) {
	src, id, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	cp, err := privateCopy(src, path)
	if err != nil {
		return nil, fmt.Errorf("copying database %s: %w", path, err)
	}
	st, err := src.Stat()
	if err == nil && fileID(st) != id {
		err = fmt.Errorf("database %s: %w", path, ErrChanging)
	}
	if err == nil {
		if st, err = cp.Stat(); err == nil {
			err = checkHeader(cp, st.Size())
		}
	}
	if err != nil {
		cp.Close()
		return nil, err
	}
	return openOn(path, cp, id)
}

// ErrChanging is OpenCopy's error for a file written to while it was
// copied.
var ErrChanging = errors.New("the file changed while it was being copied (written in place)")

// privateCopy copies src into a file no other process can reach: created
// beside path (the same file system, where copy_file_range may share
// extents rather than copy bytes) or else in the temporary directory, and
// unlinked at once, so its space returns when the DB closes it, even if the
// process dies. On disk, not in memory: a database is hundreds of
// megabytes, a swap holds two generations, and the kernel's page cache
// keeps the hot pages of a file anyway. io.Copy between two files is
// copy_file_range on Linux: no bytes pass through this process.
func privateCopy(src *os.File, path string) (*os.File, error) {
	var firstErr error
	for _, dir := range []string{filepath.Dir(path), os.TempDir()} {
		cp, err := os.CreateTemp(dir, ".gpuisa-served-*.db")
		if err == nil {
			os.Remove(cp.Name())
			if _, err = src.Seek(0, io.SeekStart); err == nil {
				_, err = io.Copy(cp, src)
			}
			if err == nil {
				return cp, nil
			}
			cp.Close()
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, firstErr
}
