/**
 * The TypeBox builder subset the schemas use, statically typed by typebox 1.x (so the Fastify
 * TypeBox type provider infers request types) and producing the same plain JSON Schema TypeBox
 * produces. Why not typebox's runtime: typebox 1.x ships ES modules only; Node ≥ 20.19 can
 * require() them but Jest's CommonJS runtime cannot, and the tests must run this very code.
 */
import type * as TypeBox from 'typebox';

type TB = typeof TypeBox.Type;
type Schema = Record<string, unknown>;

const OPTIONAL = Symbol('optional');

function optional(schema: Schema): Schema {
  const copy = { ...schema };
  Object.defineProperty(copy, OPTIONAL, { value: true, enumerable: false });
  return copy;
}

function object(properties: Record<string, Schema>, options: Schema = {}): Schema {
  const required = Object.keys(properties).filter((k) => !(properties[k] as { [OPTIONAL]?: boolean })[OPTIONAL]);
  return { type: 'object', ...(required.length ? { required } : {}), properties, ...options };
}

export const Type = {
  Object: object as unknown as TB['Object'],
  Optional: optional as unknown as TB['Optional'],
  String: ((options: Schema = {}) => ({ type: 'string', ...options })) as unknown as TB['String'],
  Number: ((options: Schema = {}) => ({ type: 'number', ...options })) as unknown as TB['Number'],
  Integer: ((options: Schema = {}) => ({ type: 'integer', ...options })) as unknown as TB['Integer'],
  Boolean: ((options: Schema = {}) => ({ type: 'boolean', ...options })) as unknown as TB['Boolean'],
  Array: ((items: Schema, options: Schema = {}) => ({ type: 'array', items, ...options })) as unknown as TB['Array'],
  Ref: ((ref: string) => ({ $ref: ref })) as unknown as TB['Ref'],
  Unsafe: ((schema: Schema) => ({ ...schema })) as unknown as TB['Unsafe'],
};

export type { TSchema, Static } from 'typebox';
