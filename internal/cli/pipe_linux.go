package cli

import (
	"io"
	"os"
	"syscall"
)

// widenPipe grows the pipe w writes to, when it is one, to 1 MB (Linux's
// default limit for a process, /proc/sys/fs/pipe-max-size): a listing of
// 200,000 words is 9.5 MB of text, and through the default 64 KB pipe the
// writer waited on its reader about 150 times, a third of its wall time.
// Advice only: a refusal leaves the pipe as it was.
func widenPipe(w io.Writer) {
	f, ok := w.(*os.File)
	if !ok {
		return
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return
	}
	const setPipeSize = 1031 // F_SETPIPE_SZ (fcntl.h)
	syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), setPipeSize, 1<<20)
}
