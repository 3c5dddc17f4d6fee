{{ config(materialized='table') }}
with delivered as (
    select cast(shipment_id as bigint) as shipment_id, min(cast(cast(event_at as timestamp) as date)) as delivered_on
    from {{ source('airbyte_schema', 'delivery_events') }}
    where event_type = 'delivered'
    group by 1
),
shipments as (
    select cast(s.shipment_id as bigint) as shipment_id, cast(s.carrier_id as bigint) as carrier_id,
           cast(s.promised_on as date) as promised_on, d.delivered_on
    from {{ source('airbyte_schema', 'shipments') }} s
    left join delivered d on d.shipment_id = cast(s.shipment_id as bigint)
),
per_carrier as (
    select carrier_id, count(*) as shipments,
           count(delivered_on) as delivered_shipments,
           round(count(*) filter (where delivered_on <= promised_on) / count(*), 3) as on_time_rate
    from shipments group by carrier_id
)
select
    cast(c.carrier_id as bigint) as carrier_id,
    c.carrier_name,
    coalesce(p.shipments, 0) as shipments,
    coalesce(p.delivered_shipments, 0) as delivered_shipments,
    p.on_time_rate,
    case
        when p.on_time_rate >= 0.8 then 'excellent'
        when p.on_time_rate >= 0.6 then 'good'
        else 'poor'
    end as performance_band,
    row_number() over (order by p.on_time_rate desc nulls last, cast(c.carrier_id as bigint)) as carrier_rank
from {{ source('airbyte_schema', 'carriers') }} c
left join per_carrier p on p.carrier_id = cast(c.carrier_id as bigint)
