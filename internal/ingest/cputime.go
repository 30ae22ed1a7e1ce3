package ingest

import (
	"syscall"
	"time"
)

// cpuTimes is the CPU time used so far by this process and by the tool
// processes it has waited for (ptxas, llvm-mc, nvdisasm...): a step's
// share of each tells where a build's time goes even when other work
// shares the machine and wall-clock times stretch.
func cpuTimes() (self, tools time.Duration) {
	var s, c syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &s) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &c) != nil {
		return 0, 0
	}
	return rusageCPU(&s), rusageCPU(&c)
}

func rusageCPU(r *syscall.Rusage) time.Duration {
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
