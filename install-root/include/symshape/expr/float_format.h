#pragma once
// Decimal forms of doubles used by the printers and range strings: Python's repr (shortest
// round-trip) and mpmath's to_str, which is how SymPy prints a Float (15 significant digits
// in the `str` form, 17 in PyTorch's guard printer).
#include <string>

namespace symshape {

// Python repr(float): "2.0", "0.1", "1e+16", "inf", "nan".
std::string python_float_repr(double v);

// mpmath.libmp.to_str(v, dps, strip_zeros) with SymPy's clean-ups: "2.00000000000000",
// "2.0" (stripped), "1.0e+20"; infinities print as "oo"/"-oo", NaN as "nan".
std::string mpmath_float_str(double v, int dps, bool strip_zeros);

}  // namespace symshape
