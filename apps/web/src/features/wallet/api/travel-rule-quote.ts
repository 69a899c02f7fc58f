import type { Coin, TravelRuleQuoteOut } from '@p2p/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../../lib/api-client';

/** How long the amount must stay unchanged before it is quoted (one request per pause in typing). */
const SETTLE_MS = 300;

/**
 * Whether an external withdrawal of `amount` (a plain decimal) needs the Travel Rule's beneficiary
 * (DECISIONS §19: worth >= TRAVEL_RULE_MIN_KRW at the current price): GET /api/v1/travel-rule/quote, asked
 * once the amount settles, only when `enabled` (an external withdrawal with a positive amount).
 */
export function useTravelRuleQuote(coin: Coin, amount: string, enabled: boolean) {
  const [settled, setSettled] = useState(amount);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(amount), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [amount]);
  return useQuery({
    queryKey: ['travel-rule-quote', coin, settled],
    queryFn: () =>
      api.get<TravelRuleQuoteOut>('/api/v1/travel-rule/quote', {
        query: { coinCode: coin, amount: settled },
      }),
    enabled: enabled && settled === amount && settled !== '',
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
