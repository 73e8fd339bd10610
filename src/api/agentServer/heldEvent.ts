/**
 * An event as the event log holds it (huge strings cut, images kept as their head) and what that
 * weighs on the heap, so the log's budget in bytes is what V8 pays, whatever a server sends.
 *
 * The weights are Node 20's (the extension host) on 64 bits, no pointer compression, measured with
 * `--expose-gc` as `heapUsed` after a full collection, per value parsed from JSON. JSON's length is
 * not it: `{}` is 2 characters and about 60 bytes, `[]` 2 and 40, a property 5 to 85 bytes, a
 * character 1 or 2. An object of a shape the log has seen costs a slot a property (V8 shares its
 * hidden class); every other figure is the dearer case, so the log errs towards holding less.
 */
import { isImageData } from '../imageData';

export interface HeldEvent {
  /** The event as held: itself when nothing was cut, else a copy. */
  slim: unknown;
  /** What it weighs on the heap, with its share of the log's index. */
  bytes: number;
}

/** A string's header (map, hash, length). */
const STRING_HEADER_BYTES = 16;
/** An object: its header and the slack `JSON.parse` leaves for properties (`{}` in an array: 62). */
const OBJECT_BYTES = 64;
/**
 * A property beyond its key (weighed as a string): its slot and what V8 builds for its shape. A key
 * never seen before makes new hidden classes (80 to 85 bytes a property with its key, measured); an
 * object of 128 properties or more is a hash table (about 60 a property).
 */
const PROPERTY_BYTES = 48;
/** A property of a shape the log has seen (the same keys in the same order): its slot alone. */
const SHAPED_PROPERTY_BYTES = 8;
/** Objects with more properties are hash tables in V8: each property costs its full weight. */
const MAX_SHAPED_PROPERTIES = 127;
/**
 * The shapes a log remembers, and the longest it remembers (their keys joined): what it remembers
 * stays under 1 MB, also when it was measured for events the log then refused.
 */
const MAX_SHAPES = 1024;
const MAX_SHAPE_CHARS = 512;
/** An array and its element store's header (`[]` in an array: 38). */
const ARRAY_BYTES = 48;
/** Each element's slot. */
const ELEMENT_BYTES = 8;
/** A number V8 cannot keep in its slot (not a small integer) is a heap number of its own. */
const HEAP_NUMBER_BYTES = 16;
/** An event's share of the log's own index: its slot, its id in the set of ids, a cut mark. */
const EVENT_INDEX_BYTES = 64;

/**
 * V8 holds Latin-1 in one byte a character only when it knows it: Node decodes a UTF-8 frame with
 * one `é` into a two-byte string (a million `é` measured 2 MB). So past ASCII, two bytes.
 */
const PAST_ASCII = /[\u0080-\uffff]/;

function stringBytes(text: string): number {
  return STRING_HEADER_BYTES + text.length * (PAST_ASCII.test(text) ? 2 : 1);
}

interface Walk {
  max: number;
  imageMax: number;
  bytes: number;
  /** The objects' shapes seen so far (their keys joined): V8 shares one hidden class for each. */
  shapes: Set<string>;
}

/**
 * The event as the log holds it, with every string longer than `max` cut to `max` and every image
 * (a `screenshot_data` value, a `data:image/` URL) longer than `imageMax` cut to `imageMax`, and what
 * it weighs, in one walk.
 */
export function heldCopy(event: unknown, max: number, imageMax: number, shapes: Set<string>): HeldEvent {
  const walk: Walk = { max, imageMax, bytes: EVENT_INDEX_BYTES, shapes };
  const slim = held(event, walk, undefined);
  return { slim, bytes: walk.bytes };
}

/** `value` as held (itself when nothing in it was cut), its weight added to `walk.bytes`. */
function held(value: unknown, walk: Walk, key: string | undefined): unknown {
  if (typeof value === 'string') {
    const limit = isImageData(key, value) ? walk.imageMax : walk.max;
    const kept = value.length > limit ? ownCopy(value.slice(0, limit)) : value;
    walk.bytes += stringBytes(kept);
    return kept;
  }
  if (typeof value === 'number') {
    // a small integer (31 bits, to be safe on every build) lives in its slot
    if (!Number.isInteger(value) || Math.abs(value) >= 2 ** 30) walk.bytes += HEAP_NUMBER_BYTES;
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  let changed = false;
  if (Array.isArray(value)) {
    walk.bytes += ARRAY_BYTES + ELEMENT_BYTES * value.length;
    const copy = value.map((item: unknown) => {
      const next = held(item, walk, undefined);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? copy : value;
  }
  const entries = Object.entries(value);
  walk.bytes += OBJECT_BYTES + shapeBytes(entries, walk.shapes);
  const copy: Record<string, unknown> = {};
  for (const [childKey, child] of entries) {
    const next = held(child, walk, childKey);
    if (next !== child) changed = true;
    copy[childKey] = next;
  }
  return changed ? copy : value;
}

/**
 * What an object's properties cost beyond their values: a slot each when the log has seen its shape
 * (a remembered one is a string of the keys joined, weighed when it is first seen), else each its
 * full weight with its key.
 */
function shapeBytes(entries: ReadonlyArray<[string, unknown]>, shapes: Set<string>): number {
  const shaped = entries.length <= MAX_SHAPED_PROPERTIES;
  const shape = shaped ? entries.map(([key]) => key).join('\u0000') : '';
  if (shaped && shapes.has(shape)) return SHAPED_PROPERTY_BYTES * entries.length;
  let bytes = 0;
  for (const [key] of entries) bytes += PROPERTY_BYTES + stringBytes(key);
  if (shaped && shapes.size < MAX_SHAPES && shape.length <= MAX_SHAPE_CHARS) {
    shapes.add(shape);
    bytes += stringBytes(shape);
  }
  return bytes;
}

/**
 * The string in memory of its own: V8 makes a slice of a long string point into the whole, so a
 * screenshot's 4 KB head would keep its 400 KB alive (500 screenshots held 200 MB, not 2).
 */
function ownCopy(slice: string): string {
  return JSON.parse(JSON.stringify(slice)) as string;
}
