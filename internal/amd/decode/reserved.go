package decode

// llvmIgnoredBits are the bits, per encoding generation and format, that
// no field of the guide's layout covers but that llvm-mc 22 decodes past
// (it prints the word whatever they hold): the differential test's
// llvm-accepted words (TestDifferentialLLVM, every family, seed 42, 4,000
// words each) with one of them set. Some are fields LLVM reads and the
// guides leave out (the gfx9 MIMG/SMEM bits, the gfx12 VFLAT/VGLOBAL/
// VSCRATCH and VBUFFER layouts the guides draw 96 bits wide), the rest
// bits LLVM leaves unchecked; the gfx12 memory formats' bit 7 (NV) and
// bit 48 (the scale_offset bit) are read by the renderer where the guide
// draws no field (bit12). Every other uncovered bit is reserved: a
// word with one set is invalid (reservedBits).
var llvmIgnoredBits = map[ignoredKey][]int{
	{9, "EXP"}:       {13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25},
	{9, "GLOBAL"}:    {25},
	{9, "MIMG"}:      {1, 2, 3, 4, 5, 6, 7, 58, 59, 60, 61, 62},
	{9, "MTBUF"}:     {53},
	{9, "MUBUF"}:     {15, 25, 53, 54},
	{9, "SCRATCH"}:   {25},
	{9, "SMEM"}:      {13, 53, 54, 55, 56},
	{9, "VOP3P-MAI"}: {15},
	{10, "DS"}:       {16},
	{10, "EXP"}:      {13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25},
	{10, "GLOBAL"}:   {25},
	{10, "MIMG"}:     {6, 14, 58, 59, 60, 61},
	{10, "MUBUF"}:    {17, 53},
	{10, "SCRATCH"}:  {25},
	{10, "SMEM"}:     {13, 15, 17, 53, 54, 55, 56},
	{11, "DS"}:       {16},
	{11, "EXP"}:      {10, 12, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25},
	{11, "GLOBAL"}:   {25},
	{11, "MIMG"}:     {1, 5, 6, 55, 56, 57, 63},
	{11, "MUBUF"}:    {15, 16, 17},
	{11, "SCRATCH"}:  {25},
	{11, "SMEM"}:     {13, 15, 17, 53, 54, 55, 56},
	{11, "VINTERP"}:  {23, 59, 60},
	{12, "SMEM"}:     {19, 20, 25, 56},
	{12, "VBUFFER"}:  {7, 8, 9, 10, 11, 12, 13, 23, 24, 25, 40},
	{12, "VDS"}:      {16},
	{12, "VEXPORT"}:  {10, 12, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25},
	{12, "VFLAT"}:    {7, 8, 9, 10, 11, 12, 13, 22, 23, 40, 41, 42, 43, 44, 45, 46, 47, 48, 63},
	{12, "VGLOBAL"}:  {7, 8, 9, 10, 11, 12, 13, 22, 23, 40, 41, 42, 43, 44, 45, 46, 47, 48, 63},
	{12, "VIMAGE"}:   {3, 7, 8, 9, 10, 11, 12, 13, 40}, // 8, 9, 40: decodetest/asm.tsv:104
	{12, "VINTERP"}:  {21, 22, 23, 59, 60},
	{12, "VSAMPLE"}:  {7, 8, 9, 10, 11, 12},
	{12, "VSCRATCH"}: {7, 8, 9, 10, 11, 12, 13, 22, 23, 40, 41, 42, 43, 44, 45, 46, 47, 48, 63},
}

type ignoredKey struct {
	gen    int
	format string
}
