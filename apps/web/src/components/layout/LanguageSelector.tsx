import { LANGUAGES, type Language } from '@p2p/contract/enums.ts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '../../i18n';
import { ChevronDown } from './icons';
import s from './layout.module.css';

const CLOSE_MS = 200;

/** EN / KR / JP selector; the dropdown closes with a 200 ms animation (SPEC §2, §9). */
export function LanguageSelector() {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const [closing, setClosing] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const timer = useRef<number | undefined>(undefined);
  const current = (LANGUAGES as readonly string[]).includes(i18n.language) ? i18n.language : 'en';

  const close = () => {
    if (!open || closing) return;
    setClosing(true);
    timer.current = window.setTimeout(() => {
      setOpen(false);
      setClosing(false);
    }, CLOSE_MS);
  };

  useEffect(() => () => window.clearTimeout(timer.current), []);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) close();
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  });

  const choose = (lang: Language) => {
    void setLanguage(lang);
    close();
  };

  return (
    <div className={s.lang} ref={root}>
      <button
        type="button"
        className={s.langButton}
        aria-haspopup="true"
        aria-expanded={open && !closing}
        data-testid="language-button"
        onClick={() => (open ? close() : setOpen(true))}
      >
        {/* The name starts with what is shown ("EN"), so voice control finds it (WCAG 2.5.3). */}
        {t(`common:language.short.${current}`)}
        <span className="visually-hidden"> {t('common:language.label')}</span>
        <ChevronDown />
      </button>
      {open && (
        <ul className={`${s.langMenu} ${closing ? s.langMenuClosing : ''}`}>
          {LANGUAGES.map((lang) => (
            <li key={lang}>
              <button
                type="button"
                aria-pressed={lang === current}
                data-testid={`language-${lang}`}
                className={`${s.langItem} ${lang === current ? s.langItemActive : ''}`}
                onClick={() => choose(lang)}
              >
                {t(`common:language.name.${lang}`)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
