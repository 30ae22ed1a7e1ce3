package isa

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

// Products per target that the families' processor tables lack: NVIDIA's
// (nvidia_products.tsv, from NVIDIA's compute-capability table; the PTX
// document lists targets, not products) and AMD's newest (amd_products.tsv,
// from ROCm's hardware specifications, where LLVM's table says "TBA").
var (
	//go:embed nvidia_products.tsv
	nvidiaProductTable string
	//go:embed amd_products.tsv
	amdProductTable string
)

// productTable reads a products table: target, a tab, products separated
// by "|"; "#" comments.
func productTable(name, text string) map[string][]string {
	m := map[string][]string{}
	for i, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		target, products, ok := strings.Cut(line, "\t")
		if !ok {
			panic(fmt.Sprintf("isa: %s:%d: a line without a tab", name, i+1))
		}
		m[target] = append(m[target], strings.Split(products, "|")...)
	}
	return m
}

var tableProducts = sync.OnceValue(func() map[string]map[string][]string {
	return map[string]map[string][]string{
		VendorNVIDIA: productTable("nvidia_products.tsv", nvidiaProductTable),
		VendorAMD:    productTable("amd_products.tsv", amdProductTable),
	}
})

// ProductsOf returns the products built on p in family a: the processor
// table's (LLVM's, for AMD) and those of the vendor's products table with
// p's target that the processor table does not already name.
func ProductsOf(a Architecture, p Processor) []string {
	out := append([]string(nil), p.Products...)
	for _, prod := range tableProducts()[a.Vendor][p.Target] {
		if !containsFold(out, prod) {
			out = append(out, prod)
		}
	}
	return out
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
