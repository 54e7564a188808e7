// peak_memory.hpp — the high-water mark of live heap bytes, counted by the
// replacement operator new/delete of peak_memory.cpp (linked into the
// benchmark binary only). Counts what goes through operator new (every
// std::vector), not direct malloc calls (Eigen's matrices).
#pragma once

#include <cstddef>

namespace peak_memory {

// Starts a new measurement: the high-water mark drops to the bytes live now.
void reset();

// The largest number of live bytes since reset(), minus those live at reset():
// the extra memory the code run in between needed at its peak.
std::size_t peak_since_reset();

}  // namespace peak_memory
