import { useCallback, useEffect, useRef, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../../config/constants';
import { normaliseSearch } from '../lib/normalise-search';

/**
 * The search box's text and the search it sends (SPEC §5): typing settles for 600 ms first, so quick typing
 * makes one request; clearing applies at once. The search ignores surrounding spaces and a leading @.
 */
export function useDebouncedSearch() {
  const [input, setInputState] = useState('');
  const [search, setSearch] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const setInput = useCallback((value: string) => {
    setInputState(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setSearch(normaliseSearch(value)), SEARCH_DEBOUNCE_MS);
  }, []);

  const clear = useCallback(() => {
    clearTimeout(timer.current);
    setInputState('');
    setSearch('');
  }, []);

  return { input, search, setInput, clear };
}
