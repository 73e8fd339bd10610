// A tiny pydantic-alike: validates parsed JSON and reports errors in the exact FastAPI 422 item
// shape (type/loc/msg/input/ctx), so clients are tested against real-looking validation errors.

export type Loc = readonly (string | number)[];

export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** Thrown by validators that emulate an uncaught Python exception (the real server answers 500). */
export class UncaughtServerError extends Error {}

export const INVALID: unique symbol = Symbol('invalid');
export type Parsed<T> = T | typeof INVALID;
export type Validator<T> = (input: unknown, loc: Loc, issues: ValidationIssue[]) => Parsed<T>;

export function issue(
  type: string,
  loc: Loc,
  msg: string,
  input: unknown,
  ctx?: Record<string, unknown>,
): ValidationIssue {
  return ctx === undefined ? { type, loc: [...loc], msg, input } : { type, loc: [...loc], msg, input, ctx };
}

/** A `ValueError` raised in a pydantic validator; FastAPI serialises the exception in ctx as `{}`. */
export function valueError(loc: Loc, message: string, input: unknown): ValidationIssue {
  return issue('value_error', loc, `Value error, ${message}`, input, { error: {} });
}

export function isPlainObject(input: unknown): input is Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input);
}

/** Python-style enumeration used in enum/literal messages: `'a', 'b' or 'c'`. */
export function expectedList(values: readonly string[]): string {
  const quoted = values.map((value) => `'${value}'`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

export function str(): Validator<string> {
  return (input, loc, issues) => {
    if (typeof input === 'string') return input;
    issues.push(issue('string_type', loc, 'Input should be a valid string', input));
    return INVALID;
  };
}

export function int(): Validator<number> {
  return (input, loc, issues) => {
    if (typeof input === 'boolean') return input ? 1 : 0;
    if (typeof input === 'number') {
      if (Number.isInteger(input)) return input;
      issues.push(
        issue(
          'int_from_float',
          loc,
          'Input should be a valid integer, got a number with a fractional part',
          input,
        ),
      );
      return INVALID;
    }
    if (typeof input === 'string') {
      const trimmed = input.trim();
      if (/^[+-]?\d+$/.test(trimmed)) return Number(trimmed);
      issues.push(
        issue(
          'int_parsing',
          loc,
          'Input should be a valid integer, unable to parse string as an integer',
          input,
        ),
      );
      return INVALID;
    }
    issues.push(issue('int_type', loc, 'Input should be a valid integer', input));
    return INVALID;
  };
}

export function float(): Validator<number> {
  return (input, loc, issues) => {
    if (typeof input === 'number') return input;
    if (typeof input === 'boolean') return input ? 1 : 0;
    if (typeof input === 'string') {
      const parsed = Number(input.trim());
      if (input.trim() !== '' && Number.isFinite(parsed)) return parsed;
      issues.push(
        issue(
          'float_parsing',
          loc,
          'Input should be a valid number, unable to parse string as a number',
          input,
        ),
      );
      return INVALID;
    }
    issues.push(issue('float_type', loc, 'Input should be a valid number', input));
    return INVALID;
  };
}

const TRUE_STRINGS = ['1', 'on', 't', 'true', 'y', 'yes'];
const FALSE_STRINGS = ['0', 'off', 'f', 'false', 'n', 'no'];

/** Pydantic lax booleans: also accepts 0/1 and the usual strings (used for query parameters too). */
export function bool(): Validator<boolean> {
  return (input, loc, issues) => {
    if (typeof input === 'boolean') return input;
    if (input === 0 || input === 1) return input === 1;
    if (typeof input === 'string') {
      const lowered = input.trim().toLowerCase();
      if (TRUE_STRINGS.includes(lowered)) return true;
      if (FALSE_STRINGS.includes(lowered)) return false;
      issues.push(
        issue('bool_parsing', loc, 'Input should be a valid boolean, unable to interpret input', input),
      );
      return INVALID;
    }
    issues.push(issue('bool_type', loc, 'Input should be a valid boolean', input));
    return INVALID;
  };
}

/** An `X | None = None` field: may be absent or null, and reads as null then. */
export function nullableField<T>(validator: Validator<T>) {
  return optional(nullable(validator), () => null);
}

/** A `str` Enum: the wire value must match exactly. */
export function enumOf<const T extends string>(values: readonly T[]): Validator<T> {
  return oneOf(values, 'enum');
}

/** A `Literal[...]` field: same check as an enum but pydantic names it differently. */
export function literal<const T extends string>(values: readonly T[]): Validator<T> {
  return oneOf(values, 'literal_error');
}

function oneOf<const T extends string>(values: readonly T[], type: 'enum' | 'literal_error'): Validator<T> {
  const expected = expectedList(values);
  return (input, loc, issues) => {
    if (typeof input === 'string' && (values as readonly string[]).includes(input)) return input as T;
    issues.push(issue(type, loc, `Input should be ${expected}`, input, { expected }));
    return INVALID;
  };
}

/** `X | None`: pydantic reports only X's error for a wrong non-null value. */
export function nullable<T>(inner: Validator<T>): Validator<T | null> {
  return (input, loc, issues) => (input === null ? null : inner(input, loc, issues));
}

export function list<T>(item: Validator<T>): Validator<T[]> {
  return (input, loc, issues) => {
    if (!Array.isArray(input)) {
      issues.push(issue('list_type', loc, 'Input should be a valid list', input));
      return INVALID;
    }
    const out: T[] = [];
    let failed = false;
    input.forEach((element, index) => {
      const parsed = item(element, [...loc, index], issues);
      if (parsed === INVALID) failed = true;
      else out.push(parsed);
    });
    return failed ? INVALID : out;
  };
}

/** `dict[K, V]`: key errors are located at `[..., key, "[key]"]` like pydantic does. */
export function dict<K extends string, V>(
  key: Validator<K>,
  value: Validator<V>,
): Validator<Partial<Record<K, V>>> {
  return (input, loc, issues) => {
    if (!isPlainObject(input)) {
      issues.push(issue('dict_type', loc, 'Input should be a valid dictionary', input));
      return INVALID;
    }
    const out: Partial<Record<K, V>> = {};
    let failed = false;
    for (const [rawKey, rawValue] of Object.entries(input)) {
      const parsedKey = key(rawKey, [...loc, rawKey, '[key]'], issues);
      const parsedValue = value(rawValue, [...loc, rawKey], issues);
      if (parsedKey === INVALID || parsedValue === INVALID) failed = true;
      else out[parsedKey] = parsedValue;
    }
    return failed ? INVALID : out;
  };
}

export interface FieldDef<T> {
  validator: Validator<T>;
  /** Absent for required fields. */
  fallback?: () => T;
}

export function required<T>(validator: Validator<T>): FieldDef<T> {
  return { validator };
}

export function optional<T>(validator: Validator<T>, fallback: () => T): FieldDef<T> {
  return { validator, fallback };
}

export type Shape = Record<string, FieldDef<unknown>>;
export type Infer<S extends Shape> = { [K in keyof S]: S[K] extends FieldDef<infer T> ? T : never };

export interface ModelOptions {
  /** `extra='forbid'`; the default (ignore) silently drops unknown keys. */
  forbidExtra?: boolean;
}

/** A pydantic BaseModel. FastAPI validates bodies with from_attributes, hence `model_attributes_type`. */
export function model<S extends Shape>(shape: S, options: ModelOptions = {}): Validator<Infer<S>> {
  return (input, loc, issues) => {
    if (!isPlainObject(input)) {
      issues.push(
        issue(
          'model_attributes_type',
          loc,
          'Input should be a valid dictionary or object to extract fields from',
          input,
        ),
      );
      return INVALID;
    }
    const out: Record<string, unknown> = {};
    let failed = false;
    for (const [name, field] of Object.entries(shape)) {
      if (!(name in input)) {
        if (field.fallback) out[name] = field.fallback();
        else {
          issues.push(issue('missing', [...loc, name], 'Field required', input));
          failed = true;
        }
        continue;
      }
      const parsed = field.validator(input[name], [...loc, name], issues);
      if (parsed === INVALID) failed = true;
      else out[name] = parsed;
    }
    if (options.forbidExtra) {
      for (const [name, value] of Object.entries(input)) {
        if (name in shape) continue;
        issues.push(issue('extra_forbidden', [...loc, name], 'Extra inputs are not permitted', value));
        failed = true;
      }
    }
    return failed ? INVALID : (out as Infer<S>);
  };
}

/** A plain (smart-mode) union: the first member that validates wins; else every member's errors, tagged. */
export function union<T>(members: readonly (readonly [string, Validator<T>])[]): Validator<T> {
  return (input, loc, issues) => {
    const collected: ValidationIssue[] = [];
    for (const [tag, member] of members) {
      const memberIssues: ValidationIssue[] = [];
      const parsed = member(input, [...loc, tag], memberIssues);
      if (parsed !== INVALID) return parsed;
      collected.push(...memberIssues);
    }
    issues.push(...collected);
    return INVALID;
  };
}

/** A union discriminated by a `kind` field, as the SDK's DiscriminatedUnionMixin models are. */
export function taggedUnion<T>(discriminator: string, members: Record<string, Validator<T>>): Validator<T> {
  const tags = Object.keys(members);
  const expectedTags = tags.map((tag) => `'${tag}'`).join(', ');
  return (input, loc, issues) => {
    const tag = isPlainObject(input) ? input[discriminator] : undefined;
    if (typeof tag !== 'string') {
      issues.push(
        issue(
          'union_tag_not_found',
          loc,
          `Unable to extract tag using discriminator '${discriminator}'`,
          input,
          {
            discriminator: `'${discriminator}'`,
          },
        ),
      );
      return INVALID;
    }
    const member = members[tag];
    if (!member) {
      issues.push(
        issue(
          'union_tag_invalid',
          loc,
          `Input tag '${tag}' found using '${discriminator}' does not match any of the expected tags: ${expectedTags}`,
          input,
          { discriminator: `'${discriminator}'`, tag, expected_tags: expectedTags },
        ),
      );
      return INVALID;
    }
    return member(input, [...loc, tag], issues);
  };
}

/** Accepts anything unchanged: for fields whose content this server does not use. */
export function anyValue(): Validator<unknown> {
  return (input) => input;
}
