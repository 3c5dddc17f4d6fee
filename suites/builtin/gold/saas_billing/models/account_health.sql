{{ config(materialized='table') }}
with usage as (
    select cast(account_id as bigint) as account_id, sum(cast(quantity as bigint)) as units
    from {{ source('airbyte_schema', 'usage_events') }} group by 1
),
tickets as (
    select cast(account_id as bigint) as account_id,
           count(*) filter (where nullif(cast(resolved_on as varchar), '') is null) as open_tickets,
           count(*) filter (where priority = 'high') as high_priority_tickets
    from {{ source('airbyte_schema', 'support_tickets') }} group by 1
),
joined as (
    select cast(a.account_id as bigint) as account_id,
           coalesce(u.units, 0) as usage_units,
           coalesce(t.open_tickets, 0) as open_tickets,
           coalesce(t.high_priority_tickets, 0) as high_priority_tickets
    from {{ source('airbyte_schema', 'accounts') }} a
    left join usage u on u.account_id = cast(a.account_id as bigint)
    left join tickets t on t.account_id = cast(a.account_id as bigint)
)
select
    account_id, usage_units, open_tickets, high_priority_tickets,
    case
        when open_tickets >= 2 or high_priority_tickets >= 2 then 'at_risk'
        when usage_units < 60 then 'watch'
        else 'healthy'
    end as health
from joined
