package decode
import ("testing";"github.com/gpuisa/gpuisa/internal/decode/decodetest")
func TestProbe(t *testing.T){
 m,_:=decodetest.Model()
 for _,id:=range []string{"cdna4","rdna3"}{
  for _,in:=range m[id].Instrs{
   switch in.Name{case "ds_write2_b32","ds_read_b64","ds_write_b32","ds_add_rtn_u32","global_load_dwordx2","global_load_b64","buffer_load_dword","buffer_load_b32","s_load_dwordx4","v_mfma_f32_32x32x8f16","tbuffer_load_format_x":
   default: continue}
   t.Logf("%s %s syntax=%+v ops=%d", id, in.Name, in.Syntax, len(in.Operands))
  }
 }
}
