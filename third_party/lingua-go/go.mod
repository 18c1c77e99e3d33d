module github.com/pemistahl/lingua-go

go 1.18

require (
	github.com/shopspring/decimal v1.3.1
	github.com/stretchr/testify v1.8.4
	golang.org/x/exp v0.0.0-20221106115401-f9659909a136
	google.golang.org/protobuf v1.31.0
)

require (
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
