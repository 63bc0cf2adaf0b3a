// Seed 002's memory fence example (the CUDA programming guide's "last block" sum), pasted as the
// slide has it, with the two helpers it leaves out written and the `if` the slide lost restored.
/* warpscope
kernel = "sum"
n = 4096
block = 256
args = ["array", "n", "result"]

[arrays.array]
type = "float"
size = "n"
fill = "iota"

[arrays.result]
type = "float"
size = "n / block.x"
expect = "i == 0 ? n * (n - 1) / 2.0 : double(block.x) * block.x * i + block.x * (block.x - 1) / 2.0"
*/

__device__ float calculatePartialSum(const float* array, unsigned int N) {
    __shared__ float partial[256];
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < N ? array[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    return partial[0];
}

__device__ float calculateTotalSum(volatile float* result) {
    float total = 0;
    for (unsigned int b = 0; b < gridDim.x; ++b) total += result[b];
    __syncthreads();  // (every thread has read result[0] before thread 0 overwrites it)
    return total;
}

__device__ unsigned int count = 0;
__shared__ bool isLastBlockDone;
__global__ void sum(const float* array,
                    unsigned int N, float* result) {

    // Each block sums a subset of the input array
    float partialSum = calculatePartialSum(array, N);

    if (threadIdx.x == 0) {
        // Thread 0 of each block stores the partial sum
        // to global memory
        result[blockIdx.x] = partialSum;

        // Thread 0 makes sure its partial sum is written
        // all other threads
        __threadfence();

        // Thread 0 of each block signals that it is done
        unsigned int value = atomicInc(&count, gridDim.x);

        // Thread 0 of each block determines if its block is
        // the last block to be done
        isLastBlockDone = (value == (gridDim.x - 1));
    }

    // Synchronize to make sure that each thread
    // reads the correct value of isLastBlockDone
    __syncthreads();

    if (isLastBlockDone) {
        // The last block sums the partial sums
        // stored in result[0 .. gridDim.x-1]
        float totalSum = calculateTotalSum(result);

        if (threadIdx.x == 0) {
            // Thread 0 of last block stores total sum
            // to global memory and resets count so
            // that next kernel call works properly
            result[0] = totalSum;
            count = 0;
        }
    }
}
