{{ config(materialized='table') }}
with months as (
    select cast(m as date) as month_start
    from generate_series(date '2024-01-01', date '2024-12-01', interval 1 month) as t(m)
),
subs as (
    select cast(s.started_on as date) as started_on,
           try_cast(nullif(cast(s.cancelled_on as varchar), '') as date) as cancelled_on,
           cast(p.monthly_price as decimal(10, 2)) as price
    from {{ source('airbyte_schema', 'subscriptions') }} s
    join {{ source('airbyte_schema', 'plans') }} p on cast(p.plan_id as bigint) = cast(s.plan_id as bigint)
)
select
    m.month_start,
    count(s.started_on) filter (
        where s.started_on <= m.month_start and (s.cancelled_on is null or s.cancelled_on >= m.month_start)
    ) as active_subscriptions,
    coalesce(sum(s.price) filter (
        where s.started_on <= m.month_start and (s.cancelled_on is null or s.cancelled_on >= m.month_start)
    ), 0) as mrr,
    count(s.started_on) filter (where s.started_on = m.month_start) as new_subscriptions
from months m
cross join subs s
group by m.month_start
