package contracts

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"reflect"
	"strings"
)

// comments are the Go doc comments of types and fields, keyed by package path and type name
// ("…/internal/monitor.Dashboard"), then by field path ("…/internal/monitor.Dashboard.NewCount",
// "…MatchPayload.MatchMeta.MatchedTerms" for a field of an unnamed struct), so the generated file
// keeps what the Go side says about units and meaning.
type comments map[string]string

// readComments parses the packages of the types met; src is the repository's root. A package
// outside it (the standard library) has no comments to copy.
func (c comments) read(src fs.FS, pkgPath string) error {
	if _, done := c[pkgPath]; done {
		return nil
	}
	c[pkgPath] = ""
	i := strings.Index(pkgPath, "/internal/")
	if i < 0 {
		return nil
	}
	dir := pkgPath[i+1:]
	entries, err := fs.ReadDir(src, dir)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		text, err := fs.ReadFile(src, path.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, e.Name(), text, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				key := pkgPath + "." + ts.Name.Name
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				c[key] = doc.Text()
				if st, ok := ts.Type.(*ast.StructType); ok {
					c.fields(key, st)
				}
			}
		}
	}
	return nil
}

func (c comments) fields(owner string, st *ast.StructType) {
	for _, f := range st.Fields.List {
		doc := f.Doc
		if doc == nil {
			doc = f.Comment
		}
		for _, name := range f.Names {
			key := owner + "." + name.Name
			c[key] = doc.Text()
			if inner, ok := f.Type.(*ast.StructType); ok {
				c.fields(key, inner)
			}
		}
	}
}

// typeKey is the key of a named type's comment.
func typeKey(t reflect.Type) string { return t.PkgPath() + "." + t.Name() }
