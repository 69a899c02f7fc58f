import type { PricesResponse } from '@p2p/contract';
import { LIMITS } from '@p2p/contract/limits.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /api/v1/prices (DECISIONS §7): KRW price and 24 h change of BTC, ETH, XRP, TRX. */
export function getPrices(): Promise<PricesResponse> {
  return api.get<PricesResponse>('/api/v1/prices');
}

/**
 * Live rates for the home page: refetched every 60 s, kept (and persisted under `root`) for 10 minutes
 * so a reload shows the last rates at once (SPEC §9).
 */
export const pricesQueryOptions = () =>
  queryOptions({
    queryKey: ['prices'],
    queryFn: getPrices,
    refetchInterval: LIMITS.priceRefreshMs,
    staleTime: LIMITS.priceRefreshMs,
    gcTime: LIMITS.priceCacheMs,
    retry: false,
  });

export function usePrices() {
  return useQuery(pricesQueryOptions());
}
