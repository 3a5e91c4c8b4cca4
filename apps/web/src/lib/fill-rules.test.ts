import { describe, expect, it } from 'vitest';
import { fillRules, ruleValues } from './fill-rules';
import { demoBranding, testProgramme } from '../test/demo-branding';

describe('fillRules', () => {
  const values = ruleValues(testProgramme, demoBranding);

  it('fills numbers, nested numbers, lists and names from the programme rules', () => {
    expect(
      fillRules(
        '{linkedMultiplier}× · {weights.quote} · {interactionRewards.reply} · {hashtags} · {officialHandles} · {daoName}',
        values,
      ),
    ).toBe('4× · 11 · 5 · #ManaBoard, #EarnMana · @ManaboardHQ · Manaboard DAO');
  });

  it('never shows a raw placeholder or a made-up number', () => {
    expect(fillRules('{nothing} and {weights.nothing}', values)).toBe('… and …');
    expect(fillRules('{dailyLimit} posts', ruleValues(undefined, demoBranding))).toBe('… posts');
  });

  it('leaves every placeholder of the shipped How-to-earn texts filled', () => {
    for (const page of demoBranding.howToEarn) {
      for (const paragraph of page.paragraphs) expect(fillRules(paragraph, values)).not.toMatch(/[{}…]/);
    }
  });
});
