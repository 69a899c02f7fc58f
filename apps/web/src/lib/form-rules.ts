import type { ZodObject, ZodRawShape, ZodType, z } from 'zod';

/** The first issue message (a field code) of `schema` for `value`, or undefined when it passes. */
export function firstIssue(schema: ZodType, value: unknown): string | undefined {
  const r = schema.safeParse(value);
  return r.success ? undefined : r.error.issues[0]?.message;
}

/**
 * A zod schema for react-hook-form whose only job is to report the errors of a plain `validate` function
 * (field -> field code). Keeping the rules in a function makes them testable without a form.
 */
export function schemaOf<S extends ZodRawShape>(
  object: ZodObject<S>,
  validate: (v: z.infer<ZodObject<S>>) => Partial<Record<string, string>>,
) {
  return object.superRefine((v, ctx) => {
    for (const [path, message] of Object.entries(validate(v))) {
      if (message) ctx.addIssue({ code: 'custom', path: [path], message });
    }
  });
}
