__global__ void k() {}
/* warpscope
kernel = "k"
[params.p]
choices = ["a", "b"]
[[variants]]
id = 1
kernel = "k"
*/
