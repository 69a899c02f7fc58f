import type { Reporter, TestCase, Vitest } from 'vitest/node';

/**
 * Prints, after the run, every test that passed only on a retry, with the errors of the attempts that failed.
 * The default reporter shows such a test as passed with "(retry x1)" and nothing else, so a browser test
 * flaking on a loaded machine left no trace to diagnose (vitest.config.ts allows one retry for browser tests).
 */
export class RetriedTestsReporter implements Reporter {
  private readonly retried: TestCase[] = [];
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.result();
    if (result.state === 'passed' && (testCase.diagnostic()?.retryCount ?? 0) > 0)
      this.retried.push(testCase);
  }

  onTestRunEnd(): void {
    if (this.retried.length === 0) return;
    const lines = [`\n${this.retried.length} test(s) passed only on a retry; the failed attempts said:`];
    for (const t of this.retried) {
      lines.push(`\n- ${t.module.moduleId.replace(`${process.cwd()}/`, '')} > ${t.fullName}`);
      for (const e of t.result().errors ?? []) {
        lines.push(`  ${e.name ?? 'Error'}: ${e.message}`);
        for (const s of (e.stack ?? '')
          .split('\n')
          .filter(
            (l) => l.trim().startsWith('at ') && !l.includes('node_modules') && !l.includes('<anonymous>'),
          )
          .slice(0, 4)) {
          lines.push(`    ${s.trim()}`);
        }
      }
    }
    this.vitest?.logger.log(lines.join('\n'));
  }
}
