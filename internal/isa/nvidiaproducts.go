package isa

import (
	_ "embed"
	"strings"
	"sync"
)

// nvidiaProductTable is the NVIDIA products per sm_ target
// (nvidia_products.tsv, from NVIDIA's compute-capability table).
//
//go:embed nvidia_products.tsv
var nvidiaProductTable string

var nvidiaProducts = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, line := range strings.Split(nvidiaProductTable, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		target, products, ok := strings.Cut(line, "\t")
		if !ok {
			panic("isa: nvidia_products.tsv: a line without a tab: " + line)
		}
		m[target] = append(m[target], strings.Split(products, "|")...)
	}
	return m
})

// ProductsOf returns the products built on p in family a: the processor
// table's (LLVM's, for AMD) and, for an NVIDIA family, those of NVIDIA's
// compute-capability table with p's sm_ target. The PTX document lists
// targets, not products; the table supplies them.
func ProductsOf(a Architecture, p Processor) []string {
	if a.Vendor != VendorNVIDIA {
		return p.Products
	}
	return append(append([]string(nil), p.Products...), nvidiaProducts()[p.Target]...)
}
