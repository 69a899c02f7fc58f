import { z } from 'zod';

/**
 * GET /api/v1/company: the operator's business details that Korean users check before sending
 * money, as configured (COMPANY_NAME, COMPANY_CEO, COMPANY_REG_NO, COMPANY_VASP_NO, COMPANY_SUPPORT);
 * null when not configured, and the footer leaves that line out.
 */
export const companyInfo = z.object({
  /** 상호 */
  name: z.string().nullable(),
  /** 대표 */
  ceo: z.string().nullable(),
  /** 사업자등록번호 */
  regNo: z.string().nullable(),
  /** 가상자산사업자 신고번호 */
  vaspNo: z.string().nullable(),
  /** 고객센터 (phone or e-mail) */
  support: z.string().nullable(),
});
export type CompanyInfo = z.infer<typeof companyInfo>;
