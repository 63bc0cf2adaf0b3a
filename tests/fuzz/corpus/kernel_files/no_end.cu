/* warpscope
kernel = "k"
args = ["a"]
[arrays.a]
type = "int"
size = "n"
