package decode

import "github.com/gpuisa/gpuisa/internal/isa"

// llvmIgnoredBits are the bits, per encoding generation, product line and
// format, that no field of the guide's layout covers but that llvm-mc 22
// decodes past (it prints the word whatever they hold): the differential
// test's llvm-accepted words (TestDifferentialLLVM, every family, seed 42,
// 4,000 words each) with one of them set, and the few a comment names.
// Some are fields LLVM reads and the guides leave out (the gfx9 MIMG/SMEM
// bits, the gfx12 VFLAT/VGLOBAL/VSCRATCH and VBUFFER layouts the guides
// draw 96 bits wide), the rest bits LLVM leaves unchecked; the RDNA 4
// memory formats' bit 7 (nv) is read by the renderer where the guide draws
// no field (bit12). Every other uncovered bit is reserved: a word with one
// set is invalid (reservedBits). The generation and line together tell
// the layouts apart (gen 9 GCN: Vega; gen 9 CDNA: CDNA 1-4; gen 12 RDNA:
// RDNA 4; gen 12 CDNA: CDNA 5).
var llvmIgnoredBits = map[ignoredKey][]int{
	{9, isa.LineCDNA, "GLOBAL"}:    {25},
	{9, isa.LineCDNA, "MIMG"}:      {1, 2, 3, 4, 5, 6, 7, 58, 59, 60, 61, 62},
	{9, isa.LineCDNA, "MTBUF"}:     {53},
	{9, isa.LineCDNA, "MUBUF"}:     {15, 25, 53, 54},
	{9, isa.LineCDNA, "SCRATCH"}:   {25},
	{9, isa.LineCDNA, "SMEM"}:      {13, 53, 54, 55, 56},
	{9, isa.LineCDNA, "VOP3P-MAI"}: {15},
	{9, isa.LineGCN, "EXP"}:        {13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25},
	{9, isa.LineGCN, "GLOBAL"}:     {25},
	{9, isa.LineGCN, "MIMG"}:       {1, 2, 3, 4, 5, 6, 7, 58, 59, 60, 61, 62},
	{9, isa.LineGCN, "MTBUF"}:      {53},
	{9, isa.LineGCN, "MUBUF"}:      {15, 25, 53, 54},
	{9, isa.LineGCN, "SCRATCH"}:    {25},
	{9, isa.LineGCN, "SMEM"}:       {13, 53, 54, 55, 56},
	{10, isa.LineRDNA, "DS"}:       {16},
	{10, isa.LineRDNA, "EXP"}:      {13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25},
	{10, isa.LineRDNA, "GLOBAL"}:   {25},
	{10, isa.LineRDNA, "MIMG"}:     {6, 14, 58, 59, 60, 61},
	{10, isa.LineRDNA, "MUBUF"}:    {17, 53},
	{10, isa.LineRDNA, "SCRATCH"}:  {25},
	{10, isa.LineRDNA, "SMEM"}:     {13, 15, 17, 53, 54, 55, 56},
	{11, isa.LineRDNA, "DS"}:       {16},
	{11, isa.LineRDNA, "EXP"}:      {10, 12, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25},
	{11, isa.LineRDNA, "GLOBAL"}:   {25},
	{11, isa.LineRDNA, "MIMG"}:     {1, 5, 6, 55, 56, 57, 63},
	{11, isa.LineRDNA, "MUBUF"}:    {15, 16, 17},
	{11, isa.LineRDNA, "SCRATCH"}:  {25},
	{11, isa.LineRDNA, "SMEM"}:     {13, 15, 17, 53, 54, 55, 56},
	{11, isa.LineRDNA, "VINTERP"}:  {23, 59, 60},
	{12, isa.LineCDNA, "SMEM"}:     {19, 25},
	{12, isa.LineCDNA, "VBUFFER"}:  {8, 10, 11, 12, 13, 23, 24, 25, 40},
	{12, isa.LineCDNA, "VDS"}:      {16},
	{12, isa.LineCDNA, "VFLAT"}:    {8, 9, 10, 11, 12, 13, 22, 23, 40, 41, 42, 43, 44, 45, 46, 47, 63},
	{12, isa.LineCDNA, "VGLOBAL"}:  {8, 9, 10, 11, 12, 13, 22, 23, 40, 41, 42, 43, 44, 45, 46, 47, 63},
	{12, isa.LineCDNA, "VSCRATCH"}: {8, 9, 10, 11, 12, 13, 22, 23, 40, 41, 42, 43, 44, 45, 46, 47, 63},
	{12, isa.LineRDNA, "SMEM"}:     {19, 20, 25, 56},
	{12, isa.LineRDNA, "VBUFFER"}:  {7, 8, 9, 10, 11, 12, 13, 23, 24, 25, 40}, // 7: nv, which the renderer reads (bit12); 11, 13: seen at N=2000
	{12, isa.LineRDNA, "VDS"}:      {16},
	{12, isa.LineRDNA, "VEXPORT"}:  {10, 12, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25},
	{12, isa.LineRDNA, "VFLAT"}:    {7, 8, 9, 10, 11, 12, 13, 22, 23, 40, 41, 42, 43, 44, 45, 46, 47, 63}, // 7: nv, which the renderer reads (bit12); 40, 43: seen at N=2000, as on VGLOBAL
	{12, isa.LineRDNA, "VGLOBAL"}:  {7, 8, 9, 10, 11, 12, 13, 22, 23, 40, 41, 42, 43, 44, 45, 46, 47, 48, 63},
	{12, isa.LineRDNA, "VIMAGE"}:   {3, 7, 8, 9, 10, 11, 12, 13, 40}, // 8, 9, 40: decodetest/asm.tsv:104
	{12, isa.LineRDNA, "VINTERP"}:  {21, 22, 23, 59, 60},
	{12, isa.LineRDNA, "VSAMPLE"}:  {7, 8, 9, 10, 11, 12},
	{12, isa.LineRDNA, "VSCRATCH"}: {7, 8, 9, 10, 11, 12, 13, 22, 23, 40, 41, 42, 43, 44, 45, 46, 47, 48, 63},
}

type ignoredKey struct {
	gen    int
	line   string
	format string
}
