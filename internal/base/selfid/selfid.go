// Package selfid identifies the running program's code: what a result
// computed by this code (a rendered page, a checked family) may be kept
// under, so that any change to the code computes it again.
package selfid

import (
	"debug/elf"
	"fmt"
	"os"
	"strings"
	"sync"
)

var (
	once sync.Once
	id   string
)

// ID is the Go build ID of the running executable (it changes with any
// change to the code, templates or assets compiled into it), else the
// executable's path, size and modification time; "" when neither can be
// read, and then nothing should be kept under it.
func ID() string {
	once.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			return
		}
		if f, err := elf.Open(exe); err == nil {
			defer f.Close()
			if sec := f.Section(".note.go.buildid"); sec != nil {
				if b, err := sec.Data(); err == nil && len(b) > 16 {
					id = "go:" + strings.TrimRight(string(b[16:]), "\x00")
					return
				}
			}
		}
		if fi, err := os.Stat(exe); err == nil {
			id = fmt.Sprintf("exe:%s:%d:%d", exe, fi.Size(), fi.ModTime().UnixNano())
		}
	})
	return id
}
