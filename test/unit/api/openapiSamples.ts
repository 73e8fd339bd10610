/**
 * Builds sample payloads from a published OpenAPI document, the way a server that follows the
 * document would emit them, so our zod schemas can be checked against the documents.
 */
export interface OpenApiDocument {
  components: { schemas: Record<string, JsonSchema> };
}

export interface JsonSchema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: (string | number)[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

export type Sample = null | boolean | number | string | Sample[] | { [key: string]: Sample };

export class SampleBuilder {
  constructor(private readonly document: OpenApiDocument) {}

  resolve(schema: JsonSchema): JsonSchema {
    if (!schema.$ref) return schema;
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = this.document.components.schemas[name];
    if (!target) throw new Error(`Unresolved $ref ${schema.$ref}`);
    return this.resolve(target);
  }

  schema(name: string): JsonSchema {
    const schema = this.document.components.schemas[name];
    if (!schema) throw new Error(`No schema ${name} in the document`);
    return schema;
  }

  /** Every property filled in, with the first non-null alternative of each union. */
  full(schema: JsonSchema, depth = 0): Sample {
    const resolved = this.resolve(schema);
    const alternatives = resolved.anyOf ?? resolved.oneOf;
    if (alternatives) {
      const nonNull = alternatives.find((alt) => this.resolve(alt).type !== 'null') ?? alternatives[0];
      return nonNull ? this.full(nonNull, depth) : null;
    }
    if (resolved.allOf?.[0]) return this.full(resolved.allOf[0], depth);
    if (resolved.const !== undefined) return resolved.const as Sample;
    if (resolved.enum?.[0] !== undefined) return resolved.enum[0];
    switch (resolved.type) {
      case 'string':
        return this.string(resolved);
      case 'integer':
        return resolved.minimum ?? 1;
      case 'number':
        return resolved.minimum ?? 1.5;
      case 'boolean':
        return true;
      case 'null':
        return null;
      case 'array':
        return depth > 6 || !resolved.items ? [] : [this.full(resolved.items, depth + 1)];
      default:
        return this.object(resolved, depth, () => true);
    }
  }

  /** Only what the document marks required (recursively), as a minimal conforming server might send. */
  requiredOnly(schema: JsonSchema, depth = 0): Sample {
    const resolved = this.resolve(schema);
    if (resolved.type === 'object' || resolved.properties) {
      return this.object(resolved, depth, (key) => (resolved.required ?? []).includes(key), true);
    }
    return this.full(resolved, depth);
  }

  /** Every value of every enum reachable from a property: `[propertyName, value]` pairs. */
  enumValues(schema: JsonSchema): [string, string | number][] {
    const resolved = this.resolve(schema);
    const pairs: [string, string | number][] = [];
    for (const [key, property] of Object.entries(resolved.properties ?? {})) {
      for (const alt of [property, ...(property.anyOf ?? [])]) {
        for (const value of this.resolve(alt).enum ?? []) pairs.push([key, value]);
      }
    }
    return pairs;
  }

  private object(
    schema: JsonSchema,
    depth: number,
    include: (key: string) => boolean,
    minimal = false,
  ): Sample {
    const sample: Record<string, Sample> = {};
    if (depth > 6) return sample;
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      if (!include(key)) continue;
      sample[key] = minimal ? this.requiredOnly(property, depth + 1) : this.full(property, depth + 1);
    }
    return sample;
  }

  private string(schema: JsonSchema): string {
    if (schema.format === 'date-time') return '2025-11-15T10:20:30.123456Z';
    if (schema.format === 'uuid') return '0f6a4a1c9b6e4b2f8e0d3c2b1a09f8e7';
    if (schema.format === 'uri') return 'https://example.com/x';
    return 'sample';
  }
}
