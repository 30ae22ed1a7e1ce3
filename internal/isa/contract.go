package isa

import (
	"reflect"
	"strings"
)

// FillLists makes v honour the JSON contract: every list and map field
// that the contract requires (its json tag has no omitempty) is empty,
// never nil, so it marshals as [] or {}, never null; fields that may be
// left out are left alone. It walks pointers, structs, slices and maps
// (including the elements of a map) under v, which must be a pointer. The
// database writer calls it on every document it stores, so the API, the
// CLI and exported pages never depend on each producer remembering.
func FillLists(v any) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return
	}
	fill(rv.Elem())
}

// fill reports whether it changed anything under v. It writes only what it
// changes, so filling data that already honours the contract writes
// nothing: documents that share a map (an opcode table) can be filled on
// several goroutines at once, as the database writer does.
func fill(v reflect.Value) bool {
	changed := false
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			changed = fill(v.Elem())
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			fv := v.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			_, opts, _ := strings.Cut(tag, ",")
			required := !strings.Contains(opts, "omitempty")
			switch fv.Kind() {
			case reflect.Slice:
				if fv.IsNil() && required {
					fv.Set(reflect.MakeSlice(fv.Type(), 0, 0))
					changed = true
				}
			case reflect.Map:
				if fv.IsNil() && required {
					fv.Set(reflect.MakeMap(fv.Type()))
					changed = true
				}
			}
			changed = fill(fv) || changed
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.String {
			return false
		}
		for i := 0; i < v.Len(); i++ {
			changed = fill(v.Index(i)) || changed
		}
	case reflect.Map:
		et := v.Type().Elem()
		if et.Kind() == reflect.String || et.Kind() == reflect.Int {
			return false
		}
		// Map elements are not addressable: fill a copy and store it back
		// when it changed.
		for _, k := range v.MapKeys() {
			e := reflect.New(et).Elem()
			e.Set(v.MapIndex(k))
			c := false
			switch {
			case e.Kind() == reflect.Map && e.IsNil():
				e.Set(reflect.MakeMap(et))
				c = true
			case e.Kind() == reflect.Slice && e.IsNil():
				e.Set(reflect.MakeSlice(et, 0, 0))
				c = true
			}
			if fill(e) || c {
				v.SetMapIndex(k, e)
				changed = true
			}
		}
	}
	return changed
}
