import { options, type VNode } from 'preact';

/**
 * React 19 passes `ref` to a function component as an ordinary prop; preact/compat 10 does so only for
 * forwardRef and memo components and otherwise attaches the ref to the component instance. This hook gives
 * every plain function component React 19's behaviour, so a component written as
 * `function Field({ ref, ...props }) { return <input ref={ref} {...props} /> }` gets the input, as it would on
 * React (docs/engineering-log.md "Front door"). Class components keep the instance ref; forwardRef, memo and lazy
 * (compat marks them `_forwarded`) keep compat's own handling. Imported first by main.tsx.
 */
type FunctionType = ((props: object) => unknown) & { _forwarded?: boolean; prototype?: { render?: unknown } };

const previous = options.vnode;
options.vnode = (vnode: VNode) => {
  const type = vnode.type as unknown;
  const ref = (vnode as { ref?: unknown }).ref;
  if (typeof type === 'function' && ref != null) {
    const fn = type as FunctionType;
    if (!fn._forwarded && typeof fn.prototype?.render !== 'function') {
      (vnode.props as Record<string, unknown>).ref = ref;
      (vnode as { ref?: unknown }).ref = null;
    }
  }
  previous?.(vnode);
};
