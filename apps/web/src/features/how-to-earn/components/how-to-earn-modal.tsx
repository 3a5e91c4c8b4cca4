import { Modal } from '../../../components/ui/modal';
import { PagedSteps } from '../../../components/ui/paged-steps';
import { useBranding } from '../../../lib/branding';
import { fillRules, ruleValues } from '../../../lib/fill-rules';
import { useProgrammeRules } from '../../../lib/programme';

type Props = { open: boolean; onClose: () => void };

/**
 * How to earn Mana (SPEC §2): 5 pages from the branding texts, their numbers filled from the programme rules
 * the engine pays by, and the DAO's learn-more link.
 */
export function HowToEarnModal({ open, onClose }: Props) {
  const branding = useBranding();
  const rules = useProgrammeRules();
  const values = branding ? ruleValues(rules.data, branding) : {};
  const pages = (branding?.howToEarn ?? []).map((page) => ({
    title: fillRules(page.title, values),
    paragraphs: page.paragraphs.map((paragraph) => fillRules(paragraph, values)),
  }));

  return (
    <Modal open={open} onClose={onClose} title="How to earn Mana" widthClass="max-w-2xl" tornPaper>
      {!branding || rules.isPending ? (
        <p role="status" className="py-10 text-center text-violet-200">
          Loading…
        </p>
      ) : (
        <PagedSteps
          pages={pages}
          label="How to earn Mana pages"
          footer={
            <a
              href={branding.links.learnMore}
              target="_blank"
              rel="noopener noreferrer"
              className="self-start text-sm font-semibold text-mana-soft underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-mana-soft"
            >
              Learn more about the {branding.daoName}
              <span className="sr-only"> (opens in a new tab)</span> <span aria-hidden="true">↗</span>
            </a>
          }
        />
      )}
    </Modal>
  );
}
