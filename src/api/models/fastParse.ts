/**
 * Each reply schema compiled once, for the replies that match it: a list of 10,000 conversations is
 * checked field by field without zod's per-field bookkeeping (a payload and an issue list for every
 * field, and every wrapper around it), which cost more than parsing the JSON.
 *
 * The check is compiled to one JavaScript function per schema (as ajv does for JSON Schema): a list's
 * item is checked by straight-line code, one `typeof` per field, rather than by a closure per field,
 * which made the calls megamorphic and cost as much as `JSON.parse`. The generated source holds
 * nothing from a reply: only the schema's keys (quoted by `JSON.stringify`) and indexes into a table
 * of the functions it calls (transforms, custom checks, defaults, zod for what it does not know).
 *
 * The compiled check is never the judge. It handles the kinds our models are made of (strings,
 * numbers, booleans, arrays, objects that keep or drop unknown keys, nullable, optional, defaults,
 * pipes into transforms, custom checks) and hands anything else, or anything with extra checks, to
 * zod itself. On the first doubt it answers `DOUBT`, and the caller asks zod, whose answer (the value or
 * the issues) is what counts; when it does answer, its value equals the one zod gives (the unit tests
 * compare the two over every model, on real and broken replies). It never changes its input: a part
 * that needs nothing (no default, no transform) is given back as it came, so the answer may share
 * objects with the parsed JSON it was given, which the transport owns alone.
 */
import type { core } from 'zod/mini';

/** "Ask zod": the reply is not one the compiled check is sure of. */
export const DOUBT: unique symbol = Symbol('ask zod');

type Check = (value: unknown) => unknown;

const compiled = new WeakMap<core.$ZodType, Check>();

/** The schema's compiled check, built on first use: a value as zod would give it, or `DOUBT`. */
export function fastParser(schema: core.$ZodType): Check {
  const known = compiled.get(schema);
  if (known) return known;
  // a schema that holds itself (a recursive shape) finds this forwarder while it is being compiled
  let check: Check = () => DOUBT;
  compiled.set(schema, (value) => check(value));
  check = compile(schema);
  compiled.set(schema, check);
  return check;
}

function compile(schema: core.$ZodType): Check {
  const source = new CheckSource();
  const body = source.of(schema);
  try {
    const make = new Function('DOUBT', 'call', 'hasOwn', body) as (
      doubt: typeof DOUBT,
      calls: readonly Check[],
      hasOwn: (value: object, key: string) => boolean,
    ) => Check;
    return make(DOUBT, source.calls, (value, key) => Object.prototype.hasOwnProperty.call(value, key));
  } catch {
    // a host that forbids code from strings: zod checks on its own, only slower
    return byZod(schema);
  }
}

/**
 * The source of one check: statements that read a value from one variable and leave what zod would
 * give in another, or return `DOUBT` from the whole check (a doubt anywhere is a doubt about all).
 */
class CheckSource {
  /** The functions the source calls, by index (`call[3](value)`). */
  readonly calls: Check[] = [];
  private names = 0;
  /** The object whose check this is, until it is written: an object inside it has its own check. */
  private root: core.$ZodType | undefined;

  of(schema: core.$ZodType): string {
    this.root = schema;
    const into = this.name('out');
    return `return function check(input) { let ${into};\n${this.emit(schema, 'input', into)}\nreturn ${into}; };`;
  }

  private name(prefix: string): string {
    return `${prefix}${this.names++}`;
  }

  /** The expression that names `fn` in the source (`call[3]`): the source calls it by index. */
  private ref(fn: Check): string {
    this.calls.push(fn);
    return `call[${this.calls.length - 1}]`;
  }

  /** Source that calls `check` on `from` and puts its answer in `into`. */
  private calling(check: Check, from: string, into: string): string {
    return `${into} = ${this.ref(check)}(${from}); if (${into} === DOUBT) return DOUBT;`;
  }

  private emit(schema: core.$ZodType, from: string, into: string): string {
    const def = schema._zod.def;
    // a refinement on top (a minimum length…) is zod's to check
    if (def.checks?.length && def.type !== 'custom') return this.calling(byZod(schema), from, into);
    switch (def.type) {
      case 'string':
      case 'boolean':
        if ((def as core.$ZodStringDef | core.$ZodBooleanDef).coerce)
          return this.calling(byZod(schema), from, into);
        return `if (typeof ${from} !== '${def.type}') return DOUBT; ${into} = ${from};`;
      case 'number':
        if ((def as core.$ZodNumberDef).coerce) return this.calling(byZod(schema), from, into);
        return `if (typeof ${from} !== 'number' || !Number.isFinite(${from})) return DOUBT; ${into} = ${from};`;
      case 'unknown':
      case 'any':
        return `${into} = ${from};`;
      case 'nullable': {
        const inner = this.emit((def as core.$ZodNullableDef).innerType, from, into);
        return `if (${from} === null) ${into} = null; else { ${inner} }`;
      }
      case 'optional': {
        const innerType = (def as core.$ZodOptionalDef).innerType;
        // an optional default substitutes for absence: zod's
        if (innerType._zod.optin === 'defaulted') return this.calling(byZod(schema), from, into);
        return `if (${from} === undefined) ${into} = undefined; else { ${this.emit(innerType, from, into)} }`;
      }
      case 'default': {
        const defaulted = def as core.$ZodDefaultDef;
        // the getter gives a fresh copy each time, as zod does
        const fresh = `${this.ref(() => defaulted.defaultValue)}()`;
        const given = this.name('given');
        const inner = this.emit(defaulted.innerType, from, given);
        return `if (${from} === undefined) ${into} = ${fresh}; else { let ${given}; ${inner} ${into} = ${given} === undefined ? ${fresh} : ${given}; }`;
      }
      case 'array': {
        const copy = this.name('copy');
        const i = this.name('i');
        const item = this.name('item');
        const checked = this.name('checked');
        const element = this.emit((def as core.$ZodArrayDef).element, item, checked);
        return `if (!Array.isArray(${from})) return DOUBT; let ${copy};
for (let ${i} = 0; ${i} < ${from}.length; ${i}++) { const ${item} = ${from}[${i}]; let ${checked}; ${element}
  if (${checked} !== ${item}) (${copy} ??= ${from}.slice())[${i}] = ${checked}; }
${into} = ${copy} ?? ${from};`;
      }
      case 'pipe': {
        const pipe = def as core.$ZodPipeDef;
        if (pipe.transform || pipe.reverseTransform) return this.calling(byZod(schema), from, into); // a codec
        const middle = this.name('middle');
        return `let ${middle}; ${this.emit(pipe.in, from, middle)} ${this.emit(pipe.out, middle, into)}`;
      }
      case 'transform':
        return this.calling(transformCheck(def as core.$ZodTransformDef), from, into);
      case 'custom': {
        const custom = def as core.$ZodCustomDef;
        if ((custom.checks?.length ?? 0) > 0) return this.calling(byZod(schema), from, into);
        return this.calling(customCheck(custom), from, into);
      }
      case 'object':
        return this.emitObject(schema, def as core.$ZodObjectDef, from, into);
      default:
        return this.calling(byZod(schema), from, into);
    }
  }

  private emitObject(schema: core.$ZodType, def: core.$ZodObjectDef, from: string, into: string): string {
    const catchall = def.catchall?._zod.def.type;
    // unknown keys kept (looseObject) or dropped (object); `strict` and typed catch-alls are zod's
    if (catchall !== undefined && catchall !== 'unknown') return this.calling(byZod(schema), from, into);
    if (Object.getOwnPropertySymbols(def.shape).length > 0) return this.calling(byZod(schema), from, into);
    // one function per object: any other (or this one again, in a recursive shape) is called
    if (schema !== this.root) return this.calling(fastParser(schema), from, into);
    this.root = undefined;
    return this.objectSource(schema, def, from, into, catchall === 'unknown');
  }

  private objectSource(
    schema: core.$ZodType,
    def: core.$ZodObjectDef,
    from: string,
    into: string,
    keepsUnknown: boolean,
  ): string {
    // What differs from the input (a default for an absent key, a transformed value), if anything:
    // most list items need nothing, and are given back as they are, unallocated.
    const changed = this.name('changed');
    const lines = [
      `if (typeof ${from} !== 'object' || ${from} === null || Array.isArray(${from})) return DOUBT;`,
      // a key JSON.parse can give that assignment would turn into the prototype: zod's to handle
      `if (hasOwn(${from}, '__proto__')) return DOUBT;`,
      `let ${changed};`,
    ];
    const keys: string[] = [];
    for (const [key, element] of Object.entries(def.shape)) {
      if (key === '__proto__') return this.calling(byZod(schema), from, into);
      const quoted = JSON.stringify(key);
      keys.push(quoted);
      const internals = element._zod;
      const type = internals.def.type;
      const field = this.name('field');
      const checked = this.name('checked');
      const present = `const ${field} = ${from}[${quoted}]; let ${checked}; ${this.emit(element, field, checked)}
  if (${checked} !== ${field}) (${changed} ??= {})[${quoted}] = ${checked};`;
      let absent: string;
      if (type === 'default' && internals.optin === 'defaulted' && internals.optout === undefined) {
        const defaulted = internals.def as core.$ZodDefaultDef;
        absent = `(${changed} ??= {})[${quoted}] = ${this.ref(() => defaulted.defaultValue)}();`;
      } else if (type === 'optional' && internals.optin === 'optional' && internals.optout === 'optional') {
        absent = '';
      } else if (internals.optin === undefined && internals.optout === undefined) {
        absent = 'return DOUBT;';
      } else {
        return this.calling(byZod(schema), from, into);
      }
      lines.push(`if (!(${quoted} in ${from})) { ${absent} } else { ${present} }`);
    }
    if (keepsUnknown) lines.push(`${into} = ${changed} ? { ...${from}, ...${changed} } : ${from};`);
    else {
      // unknown keys dropped: the declared ones only
      lines.push(`${into} = {};`);
      for (const quoted of keys)
        lines.push(
          `if (${changed} && ${quoted} in ${changed}) ${into}[${quoted}] = ${changed}[${quoted}]; else if (${quoted} in ${from}) ${into}[${quoted}] = ${from}[${quoted}];`,
        );
    }
    return lines.join('\n');
  }
}

function transformCheck(def: core.$ZodTransformDef): Check {
  const transform = def.transform;
  return (value) => {
    const payload: core.ParsePayload<unknown> = { value, issues: [] };
    try {
      const result = transform(value, payload);
      return payload.issues.length > 0 || result instanceof Promise ? DOUBT : result;
    } catch {
      return DOUBT; // zod, asked again, says what went wrong
    }
  };
}

function customCheck(def: core.$ZodCustomDef): Check {
  return (value) => {
    const verdict = def.fn(value);
    return verdict && !(verdict instanceof Promise) ? value : DOUBT;
  };
}

/** What the compiled checks do not know, zod checks on its own, exactly as in a whole parse. */
function byZod(schema: core.$ZodType): Check {
  return (value) => {
    const result = schema._zod.run({ value, issues: [] }, { async: false });
    return result instanceof Promise || result.issues.length > 0 ? DOUBT : result.value;
  };
}
