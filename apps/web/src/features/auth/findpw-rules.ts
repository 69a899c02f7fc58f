import { z } from 'zod';
import { passwordError } from '../../lib/field-rules';
import { schemaOf } from '../../lib/form-rules';

const findPwObject = z.object({
  loginId: z.string(),
  code: z.string(),
  password: z.string(),
  confirm: z.string(),
});

/** The /findpw form (SPEC §2): the ID and the code steps answer with toasts; only the last step has field rules. */
export type FindPwValues = z.infer<typeof findPwObject>;

/** The new-password step, field -> field code: the SPEC §5 password rules and an equal confirmation. */
export function validateNewPassword(v: FindPwValues): Partial<Record<keyof FindPwValues, string>> {
  const e: Partial<Record<keyof FindPwValues, string | undefined>> = {
    password: passwordError(v.password),
    confirm: v.confirm === v.password ? undefined : 'PASSWORD_MISMATCH',
  };
  return Object.fromEntries(Object.entries(e).filter(([, m]) => m)) as Partial<
    Record<keyof FindPwValues, string>
  >;
}

export const findPwSchema = schemaOf(findPwObject, validateNewPassword);
