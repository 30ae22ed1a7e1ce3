package amdxml

import (
	"bytes"
	"fmt"
)

// syntheticSpec builds an invented document in the upstream element structure,
// about size bytes long, for benchmarks: a few encodings with long identifier
// lists and conditions, then as many instructions (five encodings, three
// operands each) as it takes to reach size. Names and numbers are made up.
func syntheticSpec(size int) []byte {
	var b bytes.Buffer
	b.Grow(size + 64<<10)
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<Spec>
    <Document>
        <Copyright>Invented copyright line for a benchmark.</Copyright>
        <Sensitivity>Benchmark data.</Sensitivity>
        <License>MIT</License>
        <ReleaseDate>2001-02-03</ReleaseDate>
        <SchemaVersion>1.1.1</SchemaVersion>
    </Document>
    <ISA>
        <Architecture>
            <ArchitectureName>AMD CDNA 4</ArchitectureName>
            <ArchitectureId>3</ArchitectureId>
        </Architecture>
        <Encodings>
`)
	for e := 0; e < 24; e++ {
		fmt.Fprintf(&b, `            <Encoding Order="%d">
                <EncodingName>ENC_SYN%d</EncodingName>
                <BitCount>32</BitCount>
                <EncodingIdentifierMask Radix="2">11111110000000000000000000000000</EncodingIdentifierMask>
                <EncodingIdentifiers>
`, e, e)
		for i := 0; i < 256; i++ {
			fmt.Fprintf(&b, "                    <EncodingIdentifier Radix=\"2\">%032b</EncodingIdentifier>\n", uint32(e)<<27|uint32(i)<<16)
		}
		fmt.Fprintf(&b, `                </EncodingIdentifiers>
                <EncodingConditions>
                    <EncodingCondition>
                        <ConditionName>default</ConditionName>
                        <CondtionExpression>
                            <op type="!=">
                                <op type=".fieldderef">
                                    <op type=".fieldderef">
                                        <id val="INST"/>
                                        <id val="SYN%d"/>
                                    </op>
                                    <id val="SRC0"/>
                                    <ty>
                                        <t base="I" size="32"/>
                                    </ty>
                                </op>
                                <lit val="255"/>
                                <ty>
                                    <t base="U" size="1"/>
                                </ty>
                            </op>
                        </CondtionExpression>
                    </EncodingCondition>
                </EncodingConditions>
                <Description>Invented encoding number %d &amp; friends.</Description>
                <MicrocodeFormat>
                    <BitMap>
`, e, e)
		for f, fl := range []struct {
			name          string
			count, offset int
		}{{"ENCODING", 1, 31}, {"OP", 6, 25}, {"SRC0", 9, 0}, {"VDST", 8, 17}, {"VSRC1", 8, 9}} {
			_ = f
			fmt.Fprintf(&b, `                        <Field IsConditional="false">
                            <FieldName>%s</FieldName>
                            <Description>Made-up field.</Description>
                            <BitLayout RangeCount="1">
                                <Range Order="0">
                                    <BitCount>%d</BitCount>
                                    <BitOffset>%d</BitOffset>
                                </Range>
                            </BitLayout>
                        </Field>
`, fl.name, fl.count, fl.offset)
		}
		b.WriteString("                    </BitMap>\n                </MicrocodeFormat>\n            </Encoding>\n")
	}
	b.WriteString("        </Encodings>\n        <Instructions>\n")
	const tail = "        </Instructions>\n    </ISA>\n</Spec>\n"
	for n := 0; b.Len()+len(tail) < size; n++ {
		fmt.Fprintf(&b, `            <Instruction>
                <InstructionFlags>
                    <IsBranch>FALSE</IsBranch>
                    <IsConditionalBranch>FALSE</IsConditionalBranch>
                    <IsIndirectBranch>FALSE</IsIndirectBranch>
                    <IsProgramTerminator>FALSE</IsProgramTerminator>
                    <IsImmediatelyExecuted>FALSE</IsImmediatelyExecuted>
                </InstructionFlags>
                <InstructionName>V_SYN_%d</InstructionName>
                <Description>Invented instruction %d: do something &lt;plausible&gt; with two inputs.</Description>
                <InstructionEncodings>
`, n, n)
		for e, enc := range []string{"ENC_SYN1", "SYN_LITERAL", "SYN_DPP", "SYN_SDWA", "ENC_SYN2"} {
			fmt.Fprintf(&b, `                    <InstructionEncoding>
                        <EncodingName>%s</EncodingName>
                        <EncodingCondition>default</EncodingCondition>
                        <Opcode Radix="10">%d</Opcode>
                        <Operands>
`, enc, n+256*e)
			for o, field := range []string{"VDST", "SRC0", "VSRC1"} {
				fmt.Fprintf(&b, `                            <Operand Input="%t" Output="%t" IsImplicit="false" IsBinaryMicrocodeRequired="true" Order="%d">
                                <FieldName>%s</FieldName>
                                <DataFormatName>FMT_NUM_F32</DataFormatName>
                                <OperandType>OPR_VGPR</OperandType>
                                <OperandSize>32</OperandSize>
                            </Operand>
`, o != 0, o == 0, o+1, field)
			}
			b.WriteString("                        </Operands>\n                    </InstructionEncoding>\n")
		}
		b.WriteString(`                </InstructionEncodings>
                <FunctionalGroup>
                    <Name>VALU</Name>
                    <FunctionalSubgroups>
                        <Subgroup>NOT_ASSIGNED</Subgroup>
                    </FunctionalSubgroups>
                </FunctionalGroup>
            </Instruction>
`)
	}
	b.WriteString(tail)
	return b.Bytes()
}
