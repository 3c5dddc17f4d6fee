{{ config(materialized='table') }}
with riders as (
    select cast(rider_id as bigint) as rider_id, first_name, last_name, membership
    from {{ source('airbyte_schema', 'riders') }}
),
fares as (
    select membership, cast(unlock_fee as decimal(10, 2)) as unlock_fee, cast(per_minute_fee as decimal(10, 2)) as per_minute_fee
    from {{ source('airbyte_schema', 'fare_rules') }}
),
trips as (
    select
        cast(rider_id as bigint) as rider_id,
        date_diff('minute', cast(started_at as timestamp), cast(ended_at as timestamp)) as minutes
    from {{ source('airbyte_schema', 'trips') }}
),
per_rider as (
    select
        r.rider_id,
        count(t.rider_id) as trip_count,
        coalesce(sum(t.minutes), 0) as total_minutes,
        coalesce(sum(f.unlock_fee + f.per_minute_fee * t.minutes), 0) as total_fare
    from riders r
    left join trips t on t.rider_id = r.rider_id
    left join fares f on f.membership = r.membership
    group by r.rider_id
)
select
    r.rider_id,
    r.first_name || ' ' || r.last_name as full_name,
    r.membership,
    p.trip_count,
    p.total_minutes,
    round(p.total_fare, 2) as total_fare,
    case
        when p.trip_count >= 8 then 'frequent'
        when p.trip_count >= 4 then 'regular'
        when p.trip_count >= 1 then 'occasional'
        else 'inactive'
    end as rider_tier
from riders r
join per_rider p on p.rider_id = r.rider_id
