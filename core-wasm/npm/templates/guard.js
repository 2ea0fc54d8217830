
// mg-core: errors that say what to do (added to wasm-bindgen's glue by build.sh). A freed object
// throws an error naming its class, and free() (or `using`, or [Symbol.dispose]()) after free() does
// nothing, where the glue would pass a null pointer to the wasm.
function __mgGuard(Class, name) {
  const proto = Class.prototype;
  const check = (self) => {
    if (!self.__wbg_ptr)
      throw new Error(`__PKG__: this ${name} was freed (free() or \`using\`); create a new ${name} to go on`);
  };
  for (const key of Object.getOwnPropertyNames(proto)) {
    if (key === "constructor" || key === "free" || key === "__destroy_into_raw") continue;
    const found = Object.getOwnPropertyDescriptor(proto, key);
    if (typeof found.value === "function") {
      const method = found.value;
      proto[key] = function (...args) {
        check(this);
        return method.apply(this, args);
      };
    } else if (found.get || found.set) {
      Object.defineProperty(proto, key, {
        ...found,
        get: found.get && function () { check(this); return found.get.call(this); },
        set: found.set && function (value) { check(this); found.set.call(this, value); },
      });
    }
  }
  const free = proto.free;
  proto.free = function () {
    if (this.__wbg_ptr) free.call(this);
  };
  if (Symbol.dispose) proto[Symbol.dispose] = proto.free;
}
__CLASSES__
