package web

import (
	"context"
	"fmt"
	"testing"
	"time"

	dec "github.com/gpuisa/gpuisa/internal/decode"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store"
)

func TestZZScratch(t *testing.T) {
	db, err := store.Open("/tmp/web2.db")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	start := time.Now()
	a, _ := db.Arch(ctx, "cdna4")
	ins, _ := db.Instructions(ctx, "cdna4")
	t1 := time.Since(start)
	vals := make([]isa.Instruction, len(ins))
	for i, in := range ins {
		vals[i] = *in
	}
	d, err := dec.New(a, vals)
	fmt.Println("load", t1, "total", time.Since(start), err)
	for _, h := range []string{"0x02,0x07,0x02,0x16", "0xfa,0x06,0x02,0x16,0x02,0xe4,0x00,0xff", "0x160a04c1", "0x7e0a02ff 0x3f800000", "ffffffff"} {
		code, err := dec.ParseInput([]byte(h))
		if err != nil {
			fmt.Println(err)
			continue
		}
		in, n, err := d.Decode(code, 0)
		fmt.Printf("%s n=%d err=%v\n  %s %s %s extra=%s partial=%v\n", h, n, err, in.Text(), in.Name, in.Encoding, in.Extra, in.Partial)
		for _, f := range in.Fields {
			fmt.Printf("   %+v\n", f)
		}
	}
}
