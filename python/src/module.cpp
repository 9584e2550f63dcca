// The `_symshape` extension: the engine's exception hierarchy and the bindings
// (bind_graph.cpp; corpus shards for symshape.distributed: corpus_shard.cpp). The
// pure-Python parts (exporter, verify, corpus runs) are in python/symshape/.
#include <pybind11/pybind11.h>

#include "engine_handle.h"
#include "spec/spec_error.h"

namespace pyb = pybind11;

namespace symshape::py {

void bind_graph(pyb::module_& m);
void bind_dynamism(pyb::module_& m);
void bind_corpus_shard(pyb::module_& m);

namespace {

struct ExceptionClasses {
  PyObject* base = nullptr;
  PyObject* bad_input = nullptr;
  PyObject* unsupported = nullptr;
  PyObject* shape = nullptr;
  PyObject* data_dependent = nullptr;
};
ExceptionClasses g_exc;

PyObject* class_of(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::BadInput:
    case ErrorKind::Parse: return g_exc.bad_input;
    case ErrorKind::Unsupported: return g_exc.unsupported;
    case ErrorKind::Shape:
    case ErrorKind::ConstraintViolation:
    case ErrorKind::InvalidRange: return g_exc.shape;
    case ErrorKind::DataDependent:
    case ErrorKind::DynamicOutputShape:
    case ErrorKind::DataDependentOutput: return g_exc.data_dependent;
    default: return g_exc.base;
  }
}

PyObject* new_class(pyb::module_& m, const char* name, PyObject* base, const char* doc) {
  const std::string qualified = std::string("symshape.") + name;
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (!cls) throw pyb::error_already_set();
  m.add_object(name, pyb::handle(cls));
  return cls;
}

// The Python exception PyTorch raises for the same spec mistake (spec_error.h), kept on the
// raised error as `torch_exception` so a comparison with PyTorch can check the kind too.
const char* torch_exception_name(symshape::spec::PyException py) {
  switch (py) {
    case symshape::spec::PyException::UserErrorInvalidInput: return "UserError";
    case symshape::spec::PyException::AssertionError: return "AssertionError";
    case symshape::spec::PyException::NotImplementedError: return "NotImplementedError";
    case symshape::spec::PyException::TypeError: return "TypeError";
    case symshape::spec::PyException::ValueError: return "ValueError";
  }
  return "UserError";
}

}  // namespace

OpTable& process_ops() {
  static OpTable* ops = new OpTable();  // never destroyed: shards of every call share it
  return *ops;
}

void raise_engine_error(ErrorKind kind, const std::string& message) {
  PyErr_SetString(class_of(kind), message.c_str());
  throw pyb::error_already_set();
}

}  // namespace symshape::py

PYBIND11_MODULE(_symshape, m) {
  using namespace symshape::py;
  m.doc() = "symshape engine bindings";
  g_exc.base = new_class(m, "SymshapeError", PyExc_RuntimeError, "An error reported by the symshape engine");
  g_exc.bad_input = new_class(m, "BadInputError", g_exc.base, "Malformed graph file or arguments");
  g_exc.unsupported = new_class(m, "UnsupportedOpError", g_exc.base, "An op the engine does not know");
  g_exc.shape = new_class(m, "ShapeError", g_exc.base, "Sizes PyTorch's shape semantics reject");
  g_exc.data_dependent = new_class(m, "DataDependentError", g_exc.base, "A decision that depends on tensor data");
  pyb::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const symshape::spec::SpecError& e) {
      PyObject* cls = class_of(e.kind());
      pyb::object error = pyb::reinterpret_borrow<pyb::object>(cls)(e.what());
      error.attr("torch_exception") = torch_exception_name(e.py());
      PyErr_SetObject(cls, error.ptr());
    } catch (const symshape::Error& e) {
      PyErr_SetString(class_of(e.kind()), e.what());
    }
  });
  bind_graph(m);
  bind_dynamism(m);
  bind_corpus_shard(m);
}
