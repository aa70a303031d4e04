import type { InstancePlan, ShapePlan, ValuePlan } from '../manifest/manifest.types';

/** A class instance inside the built input, and the keys that lead to it. */
export interface HeldInstance {
  path: string[];
  instance: object;
}

/** Lists the instances of one built input that class-validator cannot reach; `undefined` when the plan holds none. */
export type FindUnreached = (built: object) => HeldInstance[];

type Walk = (value: unknown, path: string[], unreached: boolean, found: HeldInstance[]) => void;

/**
 * class-validator follows `@ValidateNested()` only into class instances, arrays, `Set`s and
 * `Map`s: an instance held by a record (a prototype-free object) or by a plain object (an
 * interface's shape) is never validated, however deep, so a recursive DTO through a record would
 * keep its decorators unchecked below the first level. This finds those instances from the plan,
 * so the run time validates each one itself (its own nested classes are class-validator's again).
 * Made once per tool; walks only where the plan says classes may be.
 */
export function unreachedInstances(plan: InstancePlan | undefined): FindUnreached | undefined {
  const shapes = plan?.shapes ?? {};
  if (!Object.values(shapes).some((shape) => shape.class !== undefined)) return undefined;
  const walks = new Map<string, Walk>();
  const valueWalk = (value: ValuePlan): Walk | undefined => {
    if (typeof value === 'string') return undefined;
    if ('array' in value) {
      const item = valueWalk(value.array);
      return item && ((v, path, unreached, found) => {
        if (Array.isArray(v)) v.forEach((element, i) => item(element, [...path, String(i)], unreached, found));
      });
    }
    if ('tuple' in value) {
      const items = value.tuple.map(valueWalk);
      if (items.every((item) => item === undefined)) return undefined;
      return (v, path, unreached, found) => {
        if (Array.isArray(v)) v.forEach((element, i) => items[i]?.(element, [...path, String(i)], unreached, found));
      };
    }
    const name = value.shape;
    return (v, path, unreached, found) => {
      let walk = walks.get(name);
      if (!walk) {
        walk = shapeWalk(shapes[name], valueWalk);
        walks.set(name, walk);
      }
      walk(v, path, unreached, found);
    };
  };
  const root = shapeWalk({ ...plan, class: Object }, valueWalk);
  return (built) => {
    const found: HeldInstance[] = [];
    root(built, [], false, found);
    return found;
  };
}

function shapeWalk(shape: ShapePlan, valueWalk: (plan: ValuePlan) => Walk | undefined): Walk {
  const properties = new Map<string, Walk>();
  for (const [key, plan] of Object.entries(shape.properties ?? {})) {
    const walk = valueWalk(plan);
    if (walk) properties.set(key, walk);
  }
  const additional = shape.additional === undefined ? undefined : valueWalk(shape.additional);
  const isClass = shape.class !== undefined;
  return (value, path, unreached, found) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    if (isClass && unreached) found.push({ path, instance: value });
    // Below a class instance, class-validator follows `@ValidateNested()` again; below a plain object or a record it cannot.
    const below = !isClass;
    for (const key of Object.keys(value)) {
      const walk = properties.get(key) ?? additional;
      walk?.(((value as Record<string, unknown>)[key]), [...path, key], below, found);
    }
  };
}
