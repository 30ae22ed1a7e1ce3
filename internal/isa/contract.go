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

func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			fill(v.Elem())
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
				}
			case reflect.Map:
				if fv.IsNil() && required {
					fv.Set(reflect.MakeMap(fv.Type()))
				}
			}
			fill(fv)
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.String {
			return
		}
		for i := 0; i < v.Len(); i++ {
			fill(v.Index(i))
		}
	case reflect.Map:
		et := v.Type().Elem()
		if et.Kind() == reflect.String || et.Kind() == reflect.Int {
			return
		}
		// Map elements are not addressable: fill a copy and store it back.
		for _, k := range v.MapKeys() {
			e := reflect.New(et).Elem()
			e.Set(v.MapIndex(k))
			switch {
			case e.Kind() == reflect.Map && e.IsNil():
				e.Set(reflect.MakeMap(et))
			case e.Kind() == reflect.Slice && e.IsNil():
				e.Set(reflect.MakeSlice(et, 0, 0))
			}
			fill(e)
			v.SetMapIndex(k, e)
		}
	}
}
