package decode
import ("testing";"fmt";"github.com/gpuisa/gpuisa/internal/decode/decodetest")
func TestProbe(t *testing.T){
 m,err:=decodetest.Model(); if err!=nil{t.Fatal(err)}
 for _,id:=range []string{"vega","vega7","cdna1","cdna2","cdna3","cdna4","cdna5","rdna1","rdna2","rdna3","rdna3.5","rdna4"}{
  f:=m[id]; nex:=0; ntd:=0
  for _,in:=range f.Instrs{ for _,e:=range in.Examples{ if e.Encoding!=""{nex++}}; for _,td:=range in.TargetDetails{ if td.Encoding!=""{ntd++}}}
  var fs []string
  for _,fm:=range f.Arch.Formats{ fs=append(fs, fmt.Sprintf("%s/%d", fm.Name, fm.Width))}
  _,derr:=New(f.Arch,f.Instrs)
  t.Logf("%s targets=%v instrs=%d ex=%d td=%d err=%v formats=%v", id, f.Arch.Targets, len(f.Instrs), nex, ntd, derr, fs)
 }
}
