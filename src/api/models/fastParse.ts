/**
 * Each reply schema compiled once into plain functions, for the replies that match it: a list of
 * 10,000 conversations is checked field by field without zod's per-field bookkeeping (a payload and an
 * issue list for every field, and every wrapper around it), which cost more than parsing the JSON.
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
  const def = schema._zod.def;
  // a refinement on top (a minimum length…) is zod's to check
  if (def.checks?.length && def.type !== 'custom') return byZod(schema);
  switch (def.type) {
    case 'string':
      return (def as core.$ZodStringDef).coerce
        ? byZod(schema)
        : (value) => (typeof value === 'string' ? value : DOUBT);
    case 'number':
      return (def as core.$ZodNumberDef).coerce
        ? byZod(schema)
        : (value) => (typeof value === 'number' && Number.isFinite(value) ? value : DOUBT);
    case 'boolean':
      return (def as core.$ZodBooleanDef).coerce
        ? byZod(schema)
        : (value) => (typeof value === 'boolean' ? value : DOUBT);
    case 'unknown':
    case 'any':
      return (value) => value;
    case 'nullable': {
      const inner = fastParser((def as core.$ZodNullableDef).innerType);
      return (value) => (value === null ? null : inner(value));
    }
    case 'optional': {
      const innerType = (def as core.$ZodOptionalDef).innerType;
      // an optional default substitutes for absence: zod's
      if (innerType._zod.optin === 'defaulted') return byZod(schema);
      const inner = fastParser(innerType);
      return (value) => (value === undefined ? undefined : inner(value));
    }
    case 'default': {
      const defaulted = def as core.$ZodDefaultDef;
      const inner = fastParser(defaulted.innerType);
      return (value) => {
        // the getter gives a fresh copy each time, as zod does
        if (value === undefined) return defaulted.defaultValue;
        const result = inner(value);
        return result === undefined ? defaulted.defaultValue : result;
      };
    }
    case 'array': {
      const element = fastParser((def as core.$ZodArrayDef).element);
      return (value) => {
        if (!Array.isArray(value)) return DOUBT;
        let result: unknown[] | undefined;
        for (let i = 0; i < value.length; i++) {
          const item = element(value[i]);
          if (item === DOUBT) return DOUBT;
          if (item !== value[i]) (result ??= value.slice())[i] = item;
        }
        return result ?? value;
      };
    }
    case 'pipe': {
      const pipe = def as core.$ZodPipeDef;
      if (pipe.transform || pipe.reverseTransform) return byZod(schema); // a codec
      const into = fastParser(pipe.in);
      const out = fastParser(pipe.out);
      return (value) => {
        const middle = into(value);
        return middle === DOUBT ? DOUBT : out(middle);
      };
    }
    case 'transform': {
      const transform = (def as core.$ZodTransformDef).transform;
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
    case 'custom': {
      const custom = def as core.$ZodCustomDef;
      if ((custom.checks?.length ?? 0) > 0) return byZod(schema);
      return (value) => {
        const verdict = custom.fn(value);
        return verdict && !(verdict instanceof Promise) ? value : DOUBT;
      };
    }
    case 'object':
      return compileObject(schema, def as core.$ZodObjectDef);
    default:
      return byZod(schema);
  }
}

interface Field {
  key: string;
  check: Check;
  /** What an absent key becomes: left out (optional), the default, or a doubt (required). */
  absent: 'skip' | 'default' | 'doubt';
  defaultOf?: () => unknown;
}

function compileObject(schema: core.$ZodType, def: core.$ZodObjectDef): Check {
  const catchall = def.catchall?._zod.def.type;
  // unknown keys kept (looseObject) or dropped (object); `strict` and typed catch-alls are zod's
  if (catchall !== undefined && catchall !== 'unknown') return byZod(schema);
  if (Object.getOwnPropertySymbols(def.shape).length > 0) return byZod(schema);
  const fields: Field[] = [];
  for (const [key, element] of Object.entries(def.shape)) {
    const internals = element._zod;
    const type = internals.def.type;
    if (type === 'default' && internals.optin === 'defaulted' && internals.optout === undefined) {
      const defaulted = internals.def as core.$ZodDefaultDef;
      fields.push({
        key,
        check: fastParser(element),
        absent: 'default',
        defaultOf: () => defaulted.defaultValue,
      });
    } else if (type === 'optional' && internals.optin === 'optional' && internals.optout === 'optional') {
      fields.push({ key, check: fastParser(element), absent: 'skip' });
    } else if (internals.optin === undefined && internals.optout === undefined) {
      fields.push({ key, check: fastParser(element), absent: 'doubt' });
    } else {
      return byZod(schema);
    }
  }
  const keepsUnknown = catchall === 'unknown';
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return DOUBT;
    const input = value as Record<string, unknown>;
    // a key JSON.parse can give that assignment would turn into the prototype: zod's to handle
    if (Object.prototype.hasOwnProperty.call(input, '__proto__')) return DOUBT;
    // What differs from the input (a default for an absent key, a transformed value), if anything:
    // most list items need nothing, and are given back as they are, unallocated.
    let changed: Record<string, unknown> | undefined;
    for (const field of fields) {
      if (!(field.key in input)) {
        if (field.absent === 'doubt') return DOUBT;
        if (field.absent === 'default') (changed ??= {})[field.key] = field.defaultOf?.();
        continue;
      }
      const original = input[field.key];
      const parsed = field.check(original);
      if (parsed === DOUBT) return DOUBT;
      if (parsed !== original) (changed ??= {})[field.key] = parsed;
    }
    if (keepsUnknown) return changed ? { ...input, ...changed } : input;
    // unknown keys dropped: the declared ones only
    const result: Record<string, unknown> = {};
    for (const field of fields) {
      if (changed && field.key in changed) result[field.key] = changed[field.key];
      else if (field.key in input) result[field.key] = input[field.key];
    }
    return result;
  };
}

/** What the compiled checks do not know, zod checks on its own, exactly as in a whole parse. */
function byZod(schema: core.$ZodType): Check {
  return (value) => {
    const result = schema._zod.run({ value, issues: [] }, { async: false });
    return result instanceof Promise || result.issues.length > 0 ? DOUBT : result.value;
  };
}
