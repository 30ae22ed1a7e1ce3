// Package amd groups what gpuisa knows of AMD machine code beyond the
// model: bit layouts (amdlayout), assembly text (asmtext), the decoder's and
// encoder's prepared tables (codec, codecache), code objects (codeobj), the
// decoder and encoder (decode, encode), listings (listing) and the
// executable pseudocode (sem). Each is its own package; this one holds
// nothing but this comment. Facts that differ by family come from the
// family table in internal/isa, never from a switch here.
package amd
